/* emitint.h — what the three parts of the back end (emit.c: program,
 * types and descriptors; emitexpr.c: expressions; emitstmt.c: statements
 * and functions) share. */
#ifndef GLC_EMITINT_H
#define GLC_EMITINT_H

#include "emit.h"
#include "parse.h"

/* Where a variable lives (Obj->slot). */
enum {
	S_NONE,
	S_LOCAL,   /* a C local: scalars only (S1) */
	S_FRAME,   /* a member of the data frame: pointers, aggregates */
	S_BOX,     /* the frame holds a pointer to a heap box (captured or address-taken) */
	S_GLOBAL,  /* a C global */
};

/* How a function returns its results. */
enum { R_VOID, R_DIRECT, R_OUT };

enum { MAXDEPTH = 256 }; /* C block depths that nil-check facts follow */

typedef struct Fn Fn;
struct Fn {
	FuncInfo *fi;
	const char *cname;      /* C function name */
	const char *info;       /* its GlFuncInfo symbol */
	const char *gname;      /* Go's name: main.f, main.(*T).M */
	Buf decls;              /* C locals, declared at the top */
	Buf body;
	Buf frame;              /* members of the data frame struct without pointers */
	const char *firstplain; /* the first of them (plainmember) */
	Buf frameptr;           /* members with pointers (first, zeroed at entry) */
	Vec temps, livetemps;   /* temporaries: all, and those in use */
	Vec scopevars;          /* locals the collector scans, declared in the lists being written (emitstmt.c, varclear) */
	int listdepth;          /* statement lists being written: 1 in the body */
	bool lastuses;          /* no goto: a local dies at its last use, not its scope's end (emitstmt.c) */
	Vec takeset;            /* locals used once in the statement being written, and never after: a call may take them (GL_TAKE) */
	Vec taken;              /* those a call took, cleared already */
	Vec frameslots;         /* "name" of members holding pointers */
	Vec frametypes;         /* their Types */
	Vec objslots;           /* "name" of the stack objects' members, by bit (emitstmt.c, stackobject) */
	Vec cnames;             /* C names of its gl locals, captured ones too (cname) */
	int ntemp, nlabel, indent;
	int lastindent;         /* the depth of the last line written */
	int levelgen[MAXDEPTH]; /* blocks closed at each depth so far (line()) */
	Vec nonnil;             /* NilFacts: variables checked for nil (emitexpr.c) */
	Vec rangefacts;         /* RangeFacts: range loops around the code being written */
	size_t reloadedat;      /* where in out the last RELOAD-ing callto ended */
	size_t retat;           /* where in out the last return's goto ret ended */
	size_t srclinestart, srclineend; /* where the last srcline comment lies in out */
	bool hasframe;          /* decided before the body is emitted */
	bool closure;           /* takes a GlFunc *ctx */
	int rmode;              /* R_VOID, R_DIRECT, R_OUT */
	Type *rtype;            /* the C result: single type or tuple */
	bool leaf;              /* no calls at all: no prologue check */
	bool regleaf;           /* a leaf whose pointer-holding scalars are C locals (regleaf.c) */
	bool nosplit;
	Vec callees;             /* nosplit: the gl functions it calls (stackcheck.c) */
	int line;               /* current source line */
	const char *file;
	Vec fixparams;          /* pointer parameters needing GL_FIXPARAM */
	Vec copyparams;         /* by-pointer aggregate parameters to copy in */
	Buf pins;               /* by-value aggregate parameters, copied through registers (GL_PARAMPIN) */
};

extern Fn *fn;              /* the function being emitted */
extern Buf *out;            /* where statements go (fn->body) */

/* emit.c */
const char *ctype(Type *t);
bool ptrloop(Type *t);               /* a pointer to pointers without end: void * in C */
const char *cfield(const char *name); /* a Go field name as a C member name */
const char *cmember(Type *u, int i);  /* struct u's i-th field's C member name (blank ones too) */
const char *typedesc(Type *t);        /* "&gltype_N", registering the descriptor */
const char *itabsym(Type *t, Type *iface); /* "&itab_N" */
const char *strlit(const char *s, int64_t n); /* C expression of type GlString */
const char *strinit(const char *s, int64_t n); /* the same as a static initializer */
const char *cbytes(const char *s, int64_t n);  /* the C string literal of n bytes */
bool bypointer(Type *t);             /* passed by pointer (S5) */
bool inframe(Type *t);               /* a variable of this type lives in the data frame */
const char *funcsym(Obj *f);         /* C name of a declared function or method */
const char *staticfunc(const char *sym); /* a static closure object as a GlFunc * */
int imethodindex(Type *iface, const char *name); /* a method's slot in an itab */
const char *fvsym(Obj *f);           /* a static closure object for f used as a value */
const char *methodwrapper(Type *t, Method *m, Vec *path, bool direct); /* itab entry */
Type *resulttype(Type *sig, int *mode); /* the C result of a signature */
const char *cparams(Type *sig, const char *ctxdecl, const char *recvdecl, int from, int first, bool names); /* the C convention */
const char *cargs(Type *sig, int from, int first); /* ", p0, p1, ..." */
const char *cresult(Type *sig);                    /* the C result type */
void addprototype(const char *proto);
const char *cname(const char *base); /* unique within fn */
const char *gident(const char *name); /* a gl identifier in a file-scope name */
const char *globalname(const char *base); /* unique in the program */
const char *unitname(const char *base);   /* a static helper's name, unique in the unit */
const char *fileof(Pos p);
const char *cstrlit(const char *s);  /* a C string literal of s */
const char *abspathof(Pos p);
void declareglobal(Obj *o);          /* extern declaration of another package's variable */
const char *wrapperentry(const char *name); /* a wrapper's entry pc record (hidden in tracebacks) */
int64_t helperstart(void);                  /* a static helper's text in gdecls begins here, */
void helperend(const char *name, int64_t start, const char *alias); /* and ends here: name (and alias) */
void usehelper(const char *name);           /* the C being written uses helper name */
int64_t ptrbitmap(Type *t, uint8_t *bits, int64_t off); /* fills bits; returns ptrdata */
extern Buf gdecls;          /* globals, helpers and wrappers emitted on the way */
extern Buf gfuncs;          /* function bodies */
extern Buf gprotos;         /* prototypes */

/* regleaf.c */
enum { REGLEAF_TEMP = 32 };          /* a register leaf's aggregate values up to this size are C locals */
bool regleafok(FuncInfo *fi);        /* fi can be a register leaf (Fn.regleaf) */
bool regleafkind(Type *t);           /* a value of t can be a C local there */
bool bareleaf(FuncInfo *fi);         /* fi calls nothing and needs no frame: no stack check */
FuncInfo *bareleafcallee(Node *call); /* the bare leaf of this package call calls, or NULL */
FuncInfo *inlinablecallee(Node *call); /* the register leaf of this package call calls, or NULL */

/* intrinsic.c, emitffi.c */
const char *intrinsicname(Obj *f);   /* f's inline twin in gl.h, or NULL */
const char *intrinsicpair(Obj *f);   /* the same for two results (r0 returned, r1 stored) */
void emitextern(Obj *o);             /* a //gl:extern function's wrapper */

/* emitexpr.c: what a C expression glc wrote is (cmark records, ckind reads) */
enum { CE_VALUE, CE_CONST, CE_LOCAL, CE_TEMPLOCAL, CE_FRAME, CE_TEMPFRAME, CE_BOXED, CE_GLOBAL };
const char *cmark(const char *e, int kind); /* returns e */
int ckind(const char *e);

/* emitexpr.c */
const char *fncast(Type *sig, int kind); /* C function type of an indirect call */
const char *expr(Node *n);             /* a C expression, valid until the next call */
const char *exprto(Node *n, Type *t);  /* converted to t (interfaces, untyped) */
const char *spill(const char *e, Type *t); /* copy into a temp */
const char *temp(Type *t);             /* a new temporary: C local or frame member */
const char *frametemp(Type *t);        /* a new temporary in the data frame (addressable) */
int tempmark(void);                    /* temporaries made after this ... */
void temprelease(int mark);            /* ... are free again */
void tempclear(int mark);              /* ... are zeroed if the collector scans them */
const char *addrof(Node *n);           /* &lvalue (n addressable) */
const char *derefptr(const char *p, Type *t); /* *p, p of pointer type t */
/* A place a store writes: a C lvalue and whether it is memory that only
 * this goroutine's stack scan finds (its C locals and data frame), or
 * memory reached through a pointer or a global, which any goroutine and the
 * collector may see: the write barrier's business. */
enum { PL_STACK, PL_HEAP };
typedef struct Place {
	const char *c;
	int where;
} Place;
Place lvplace(Node *n);
Place varplace(Obj *o);
Place heapplace(const char *c);     /* a place reached through a pointer */
Place stackplace(const char *c);    /* a C local or a member of the data frame */
void store(Place dst, const char *val, Type *t); /* every store of a gl value */
const char *storestmt(Place dst, const char *val, Type *t); /* the C statement store() writes */
void storecode(Place dst, const char *fname); /* a C function's address into a new record */
bool ispointershaped(Type *t);         /* one C pointer: pointer, unsafe.Pointer, map, chan, func */
const char *lvalue(Node *n);           /* lvplace(n).c, to read or take the address of */
const char *cq(void);                  /* "const " under -d=checkstores, else "" */
const char *heapptr(Type *t);          /* the C type of a pointer to a heap value of type t */
const char *mutptr(const char *p);     /* p, for the runtime or a pointer-free copy to write through */
void assign(Node *lhs, const char *val, Type *t);
const char *varref(Obj *o);
const char *slotref(Obj *o);         /* the frame member of a local: itself, or its box's pointer */
const char *takearg(Node *a, Type *pt, const char *v); /* an argument that takes a dead local (GL_TAKE) */
const char *zeroval(Type *t);
const char *conv(const char *e, Type *from, Type *to);
void emitcall(Node *n, const char **results, int nres); /* call; results into given lvalues */
const char *callexpr(Node *n);         /* a call with one result, as a temp */
void afterCall(bool mayunwind);        /* reload the frame, check for unwinding */
void callto(const char *lhs, const char *call); /* lhs = call, safe when lhs is in the frame */
void pcline(void);
void pcrecord(bool inlmark); /* pcline, or an inline mark (gl.h GL_PCLINE_INLMARK) */
void panicstmt(const char *call);      /* a call into the panic machinery, then unwind */
bool hascall(Node *n);
void emitprint(Node *n);
const char *cvalue(Const *c, Type *t);
const char *toiface(const char *e, Type *from, Type *to);

/* emitstmt.c */
void emitstmtforget(void); /* emitforget's share of emitstmt.c */
const char *csig(Type *sig, const char *name, bool closure, bool recv, Type *recvtype); /* prototype */
const char *cdeclarator(Type *sig, const char *name, bool closure, bool recv, Type *recvtype); /* its declarator */
void fixwords(Vec *fix, const char *expr, Type *t); /* the GL_FIXPARAMs of a parameter by value */
void emitfunc(FuncInfo *fi);
void stmt(Node *n);
void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void label(const char *name);          /* a C label (a join point) */
void plainmember(const char *name, const char *decl); /* a frame member without pointers */
void nilfactsforget(int depth);        /* nil checks at depth >= depth no longer hold */
void rangefactpush(Node *key, Node *seq); /* the body of for key := range seq */
bool forlenfactpush(Obj *i, Node *seq);   /* the body of for i := c; i < len(seq); i++ */
void rangefactpop(void);
void srcline(Pos p);
const char *newlabel(const char *what);
void declarevar(Obj *o);               /* assign storage to a local */
void initvar(Obj *o);                  /* zero or box it at its declaration */

void emitexprforget(void); /* emitexpr.c: emitforget's share */

#endif
