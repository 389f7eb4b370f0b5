/* check.h — the type checker's interface and the facts it leaves for the
 * back end. */
#ifndef GLC_CHECK_H
#define GLC_CHECK_H

#include "types.h"

/* What the checker learns about each function (declared or literal),
 * hung on node->aux of its N_FUNCDECL / N_FUNCLIT. */
typedef struct FuncInfo FuncInfo;
struct FuncInfo {
	Node *node;
	Obj *obj;          /* declared functions and methods */
	Type *sig;
	Obj *recv;
	Vec params;        /* Obj*, one per parameter (unnamed ones get "_" objects) */
	Vec results;       /* Obj*, one per result (unnamed ones are synthesized) */
	bool namedresults;
	Vec locals;        /* every local variable declared in the body */
	Vec captures;      /* free variables of a func literal, in first-use order */
	Vec lits;          /* func literals directly inside */
	FuncInfo *outer;
	bool hasdefer;
	bool hasrecover;
	const char *cname;
	const char *name;  /* Go's spelling: main.f, main.(*T).M, main.f.func1 */
	int nlits;         /* numbering of func literals: f.func1, f.func2 */
	int regleaf, bareleaf; /* regleaf.c's decisions, once made: 1 yes, 2 no */
	Package *pkg;
};

/* selector kinds (N_SELECTOR's op) */
enum { SEL_PKG = 1, SEL_FIELD, SEL_METHOD, SEL_IMETHOD, SEL_METHODEXPR };
/* N_SELECTOR ival bits for SEL_METHOD: how the receiver is reached */
enum { RECV_ADDR = 1, RECV_DEREF = 2 };

/* range kinds (N_RANGE's ival) */
enum { RANGE_ARRAY = 1, RANGE_PTRARRAY, RANGE_SLICE, RANGE_STRING, RANGE_MAP, RANGE_CHAN, RANGE_INT };

extern Package *curpkg;
/* ffi.c: //gl:extern declarations and the calls of variadic ones */
void checkextern(Obj *o);
void checkexterncall(Node *call, Obj *fo);
void checkcallbackcall(Node *call); /* ffi.Callback(fn) */
char fficode(Type *t); /* a value's code in runtime/ffi.c's signatures, 0 if C cannot take it */
extern Vec allpackages;   /* dependency order, main last */
/* Some package other than reflect selects a Method or MethodByName: reflect
 * may read the method tables' entries for Method.Func and Value.Method. */
extern bool reflectmethods;

/* driver hooks */
Package *importpackage(const char *path, Pos pos); /* main.c: load, parse, check */
void checkpackage(Package *p);

/* expr.c */
Type *checkexpr(Node *n);          /* any expression; leaves untyped kinds */
Type *rvalue(Node *n);             /* a single value */
Type *typexpr(Node *n);            /* a type expression */
Type *functypeof(Node *n, Vec *names); /* the type of an N_FUNCTYPE */
bool assignablet(Type *v, Type *t); /* values of type v are assignable to t */
void convertuntyped(Node *n, Type *t); /* give an untyped expression its final type */
bool assignop(Node *n, Type *t, const char *context); /* n assignable to t; converts; reports */
void defaultuntyped(Node *n);
const char *exprstr(Node *n);
void builtinuncalled(Node *n);   /* "len (built-in) must be called" */
extern Vec sizedtypes;           /* array and struct type expressions written (expr.c) */
void checktypesizes(int mark);   /* "larger than address space" for those since mark */
const char *opdesc(Node *n);
bool implements(Type *t, Type *iface, const char **why);
Obj *lookupfieldormethod(Type *t, const char *name, Vec *path, int *kind, bool *indirect);
Type *checkcall(Node *n);
Type *checkbuiltin(Node *n, int b); /* builtin.c: a call of built-in b */
/* expr.c's, for builtin.c */
bool convertuntyped2(Node *n, Type *t, const char *context);
int64_t checkintval(Node *n, const char *what, int64_t bound, bool allowneg); /* -2: reported */
int64_t checkindexval(Node *n, const char *what, int64_t bound);
bool ordered(Type *t);              /* < and > apply */
Type *checkcomplit(Node *n, Type *elided);
/* The checker's shorthands: a type as messages quote it, whether a type is
 * the error type, and n marked as failed (the error type). */
static inline const char *ts(Type *t) { return typestrq(t, curpkg); }
static inline bool bad(Type *t) { return !t || t->kind == T_BAD; }
static inline Type *fail(Node *n) {
	n->type = t_bad;
	return t_bad;
}
void checkfunclit(Node *n);
void collectmethods(Type *t, Vec *out);  /* full method set of t (for itabs): Method* */
bool ismethodset(Type *t, Method *m);    /* m is in t's method set (value or pointer) */
Method *methodof(Type *t, const char *name, Vec *path, bool *ptrrecv, bool *indirect);
void resolvemethod(Method *m);
extern FuncInfo *curfn;
extern int64_t curiota;

/* escape.c */
void escapeanalysis(void);
void escapereport(void); /* glc build -m */
Obj *calleeparam(Node *call, int i, bool recv); /* the callee's parameter, if the analysis knows it */

/* check.c */
void checkblock(Node *n);
void checkfuncbody(FuncInfo *fi, Node *body);
FuncInfo *newfuncinfo(Node *node, Type *sig);
Obj *declarelocal(Node *ident, Type *t, int kind);
void objdecl(Obj *o);
Scope *openscope(void);
void closescope(void);
extern Scope *curscope;
void markused(Obj *o);
void noteref(Obj *o);

/* A set of constant expressions, for duplicate map keys and switch cases
 * (expr.c): the nodes by a hash of their value, so that n constants are
 * checked in time linear in n.  constsetadd returns an earlier node of the
 * same type and value as e, or adds e and returns NULL. */
typedef struct ConstSet {
	PtrMap byhash; /* hash of the value → Vec of its nodes */
} ConstSet;
Node *constsetadd(ConstSet *s, Node *e); /* the node of an equal constant already in s, or NULL */
Pos startpos(Node *n); /* where expression n starts, as Go reports its operands */

#endif
