/* unicode.h — letters and digits for identifiers (unicode.c). */
#include <stdbool.h>
#include <stdint.h>

extern const char *unicodetables; /* stdlib/unicode/tables.gl, set by main; NULL: none */
bool uniletter(int32_t r);        /* Unicode category L, or '_' */
bool unidigit(int32_t r);         /* Unicode category Nd */
