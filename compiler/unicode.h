/* unicode.h — letters and digits for identifiers (unicode.c). */
#include <stdbool.h>
#include <stdint.h>

extern const char *unicodetables; /* stdlib/unicode/tables.gl, set by main; NULL: none */
bool uniletter(int32_t r);        /* Unicode category L, or '_' */
bool unidigit(int32_t r);         /* Unicode category Nd */
int32_t utf8decode(const unsigned char *p, const unsigned char *e, int *n); /* -1: invalid, *n bytes */
bool uniprint(int32_t r);         /* Go's unicode.IsPrint: L, M, N, P, S or ' ' */
