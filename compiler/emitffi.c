/* emitffi.c — the gl function glc writes for a C function declared with
 * //gl:extern (compiler/ffi.c checks the declaration; runtime/ffi.c makes
 * the call).  For
 *
 *	//gl:extern libm.so.6 cos
 *	func cos(x float64) float64
 *
 * it is main.cos, a checked function with no data frame: it copies its
 * parameters into a block alloca'd after the stack check, with an array
 * of their addresses, and calls gl_ffi_call with the GlFfiFunc that names
 * the symbol and codes the signature (docs/ffi.md shows the C).
 *
 * For a C function with no variadic part glc also writes its call stub,
 * as cgo's generated C does: a C function that calls it with the declared
 * C types, which the runtime calls on g0 instead of libffi's ffi_call
 * (GLDEBUG=ffilibffi=1 takes libffi's way, for comparison).  libffi reads
 * the call's description (the cif) at run time and places each argument;
 * the stub was compiled knowing where they go, and costs a few
 * instructions instead of libffi's ~300 (docs/ffi.md, "What a call costs"). */
#include "emitint.h"

/* The C type that holds a value of signature code c (runtime/ffi.c lists
 * the codes; bool is a byte, as libffi is told). */
static const char *codectype(char c) {
	switch (c) {
	case 'v': return "void";
	case 'z': case 'B': return "uint8_t";
	case 'b': return "int8_t";
	case 'h': return "int16_t";
	case 'H': return "uint16_t";
	case 'i': return "int32_t";
	case 'I': return "uint32_t";
	case 'l': return "int64_t";
	case 'L': return "uint64_t";
	case 'f': return "float";
	case 'd': return "double";
	case 'p': return "void *";
	}
	fatal("emitffi: bad signature code %c", c);
}

/* The call stub of a fixed signature code (result first): on g0, it calls
 * fn with *args[i] as the i-th argument and stores the result at ret. */
static void emitstub(Buf *b, const char *cname, const char *code) {
	Buf ct = {0}, call = {0};
	bprintf(&ct, "%s (*)(", codectype(code[0]));
	for (int i = 1; code[i]; i++) {
		bprintf(&ct, "%s%s", i > 1 ? ", " : "", codectype(code[i]));
		bprintf(&call, "%s*(%s *)args[%d]", i > 1 ? ", " : "", codectype(code[i]), i - 1);
	}
	bput(&ct, code[1] ? ")" : "void)");
	bput(b, "/* the call stub: C's types, as a C compiler calls it; on g0 (runtime/ffi.c, cinvoke) */\n");
	bprintf(b, "static void %s__stub(void *fn, void *const *args, void *ret) {\n\t", cname);
	if (code[0] != 'v')
		bprintf(b, "*(%s *)ret = ", codectype(code[0]));
	else
		bput(b, "(void)ret;\n\t");
	bprintf(b, "((%s)fn)(%s);\n}\n", bstr(&ct), bstr(&call));
}

/* o's gl function, for gl_ffi_call, which calls C on the M's system stack
 * with the P handed off. */
void emitextern(Obj *o) {
	Type *sig = under(o->type);
	const char *cname = funcsym(o);
	const char *gname = xprintf("%s.%s", o->pkg->path, o->name);
	const char *info = xprintf("%s__info", cname);
	int line = o->decl->pos.line;
	int nfixed = sig->fields.n - (sig->variadic ? 1 : 0);
	int mode;
	Type *rt = resulttype(sig, &mode);
	Buf code = {0};
	bputc(&code, rt ? fficode(rt) : 'v');
	for (int i = 0; i < nfixed; i++)
		bputc(&code, fficode(((Field *)sig->fields.v[i])->type));
	const char *decl = xprintf("GL_FUNC %s", cdeclarator(o->type, cname, false, false, NULL));
	addprototype(decl);
	stackrec(curpkg, cname, gname, o->decl->pos, SR_CHECKED, NULL);

	Buf *b = &gfuncs;
	bprintf(b, "\n/* %s — %s:%d: C's %s%s%s (runtime/ffi.c calls it) */\n", gname, fileof(o->decl->pos),
		line, o->csym, o->clib ? " in " : "", o->clib ? o->clib : "");
	if (!sig->variadic)
		emitstub(b, cname, bstr(&code));
	bprintf(b, "static GlFfiFunc %s__ffi = {%s, \"%s\", \"%s\", \"%s\", %s, %s, 0, 0};\n", cname,
		o->clib ? cstrlit(o->clib) : "0", o->csym, bstr(&code), gname, sig->variadic ? "true" : "false",
		sig->variadic ? "0" : xprintf("%s__stub", cname));
	bprintf(b, "static const GlFuncInfo %s __attribute__((used)) = {\"%s\", \"%s\", %d, 0, 0, 0, (void (*)(void))%s};\n",
		info, gname, abspathof(o->decl->pos), line, cname);
	/* The arguments, the array of their addresses and the result slot are
	 * alloca'd after the stack check: gcc computes the address of a C
	 * local whenever it likes, before the check too, and a check that
	 * moves the stack would leave it pointing into the old one. */
	const char *cs = xprintf("struct %s__call", cname);
	bprintf(b, "%s {\n\tvoid *args[%d];\n", cs, nfixed ? nfixed : 1);
	for (int i = 0; i < nfixed; i++)
		bprintf(b, "\t%s a%d;\n", ctype(((Field *)sig->fields.v[i])->type), i);
	if (rt)
		bprintf(b, "\t%s r;\n", ctype(rt));
	bprintf(b, "};\n%s {\n\t%s *c;\n\tuintptr_t coff;\n", decl, cs);
	bprintf(b, "\tGL_PCLINE(%s, %d);\n", info, line);
	/* pointer arguments into the caller's frame move with it */
	Vec fix = {0};
	for (int i = 0; i < nfixed; i++)
		fixwords(&fix, xprintf("p%d", i), ((Field *)sig->fields.v[i])->type);
	if (sig->variadic) /* the slice comes by pointer, into the caller's frame */
		vpush(&fix, (void *)xprintf("p%d", nfixed));
	Buf fx = {0};
	for (int i = 0; i < fix.n; i++)
		bprintf(&fx, "GL_FIXPARAM(g, %s); ", (char *)fix.v[i]);
	bprintf(b, "\tGL_STACKCHECK(g, sizeof(%s), %s, %d, %s);\n", cs, info, line, bstr(&fx));
	bprintf(b, "\tc = __builtin_alloca(GL_OPAQUE(sizeof(%s)));\n", cs);
	for (int i = 0; i < nfixed; i++)
		bprintf(b, "\tc->a%d = p%d;\n\tc->args[%d] = &c->a%d;\n", i, i, i, i);
	/* a callback from C (ffi.Callback) may move the stack: c is found
	 * again from its distance to the stack's top */
	bprintf(b, "\tcoff = g->stack.hi - (uintptr_t)c;\n");
	bprintf(b, "\tgl_ffi_call(g, &%s__ffi, %s, c->args, %s);\n", cname, rt ? "&c->r" : "0",
		sig->variadic ? xprintf("p%d", nfixed) : "0");
	if (rt)
		bprintf(b, "\tif (GL_UNLIKELY(g->unwinding))\n\t\treturn (%s){0};\n"
			   "\tc = (%s *)(g->stack.hi - coff);\n\treturn c->r;\n", ctype(rt), cs);
	else
		bput(b, "\t(void)coff;\n");
	bput(b, "}\n");
}
