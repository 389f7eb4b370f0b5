/* strconv.c — what package strconv needs that gl cannot say: a string
 * that shares the bytes of a []byte the caller will never touch again
 * (Go's unsafe.String(unsafe.SliceData(b), len(b)), which gl lacks).
 * FormatFloat, FormatInt and the Quote functions build their result in a
 * fresh byte slice; handing its array to the string saves a copy and an
 * allocation per call.  A leaf with no frame (DESIGN.md S7).
 */
#include "gl.h"

/* strconv.bytesToString(b []byte) string */
GlString strconv_bytesToString(G *g, const GlSlice *b) {
	(void)g;
	return (GlString){(const uint8_t *)b->ptr, b->len};
}
