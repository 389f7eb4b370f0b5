/* types.h — gl's types, objects, scopes, packages and constants. */
#ifndef GLC_TYPES_H
#define GLC_TYPES_H

#include "ast.h"
#include <gmp.h>

typedef struct Package Package;
typedef struct Field Field;
typedef struct Method Method;

enum TypeKind {
	T_BAD,
	/* basic types, in Go's reflect.Kind order where one exists */
	T_BOOL, T_INT, T_INT8, T_INT16, T_INT32, T_INT64,
	T_UINT, T_UINT8, T_UINT16, T_UINT32, T_UINT64, T_UINTPTR,
	T_FLOAT32, T_FLOAT64, T_COMPLEX64, T_COMPLEX128, T_STRING, T_UNSAFEPTR,
	/* untyped constant kinds */
	T_UNTYPED_BOOL, T_UNTYPED_INT, T_UNTYPED_RUNE, T_UNTYPED_FLOAT, T_UNTYPED_COMPLEX,
	T_UNTYPED_STRING, T_UNTYPED_NIL,
	/* composite */
	T_ARRAY, T_SLICE, T_STRUCT, T_POINTER, T_FUNC, T_INTERFACE, T_MAP, T_CHAN,
	T_NAMED,  /* a defined type: name + underlying + methods */
	T_TUPLE,  /* the results of a call with several */
	T_NKINDS
};

struct Field {
	const char *name;  /* NULL for an unnamed parameter */
	Type *type;
	Package *pkg;      /* for unexported names: the package they belong to */
	Pos pos;
	const char *tag;
	bool embedded;
	int64_t offset;    /* struct layout */
	Obj *obj;          /* struct fields: the field object */
};

struct Method {
	const char *name;
	Type *type;        /* func type, without the receiver */
	Package *pkg;
	Obj *fn;           /* concrete methods: the function */
	bool ptrrecv;      /* declared on *T */
	Pos pos;
};

struct Type {
	int kind;
	Type *elem;        /* array, slice, pointer, map value, chan */
	Type *key;         /* map */
	int64_t len;       /* array length; chan: direction 1 recv, 2 send, 3 both */
	Vec fields;        /* struct fields, func params, tuple elements: Field* */
	Vec results;       /* func results: Field* */
	bool variadic;
	Vec methods;       /* interface: full method set sorted by name; named: declared methods */
	Vec embeds;        /* interface: embedded interface types (before completion) */
	bool complete;     /* interface method set computed */
	/* defined types */
	const char *name;
	Package *pkg;
	Type *underlying;
	Obj *obj;
	Node *decl;
	/* layout */
	int64_t size, align;
	int layoutstate;   /* 0 none, 1 in progress, 2 done */
	/* back end */
	const char *cname; /* C type */
	const char *sym;   /* descriptor: "&" and its C name in unit symunit */
	int symunit;
	int cnameunit;     /* unnamed types: the unit cname was named in */
	int emitted;
	Type *ptrto;       /* cached *T */
	Type *rtuple;      /* func types: the cached tuple of 2+ results (resulttype) */
	Type *sliceof;     /* cached []T */
	Vec mapcache;      /* cached map types with this key */
};

enum ObjKind { O_BAD, O_CONST, O_TYPE, O_VAR, O_FUNC, O_PKG, O_BUILTIN, O_NIL, O_LABEL };

enum Builtin {
	B_APPEND = 1, B_CAP, B_CLEAR, B_CLOSE, B_COMPLEX, B_COPY, B_DELETE, B_IMAG, B_LEN, B_MAKE,
	B_MAX, B_MIN, B_NEW, B_PANIC, B_PRINT, B_PRINTLN, B_REAL, B_RECOVER,
	B_SIZEOF, B_ALIGNOF, B_OFFSETOF, B_ADD, B_SLICE, B_STRING, B_STRINGDATA, B_SLICEDATA,
};

struct Obj {
	int kind;
	const char *name;
	Pos pos;
	Type *type;
	Const *cv;          /* constants */
	Package *pkg;
	Node *decl;         /* N_FUNCDECL, N_VALUESPEC, N_TYPESPEC, or the defining node */
	Node *init;         /* constants: the expression (with iota) */
	int64_t iota;
	int builtin;        /* B_* */
	int state;          /* package-level declaration checking: 0 todo, 1 in progress, 2 done */
	bool used;
	bool global;
	bool param;
	bool result;
	bool captured;      /* referenced by a closure: lives on the heap */
	bool addrtaken;     /* &x or a pointer method call on x */
	bool onheap;        /* escape analysis moved it to the heap */
	bool escapes;       /* escape.c: its address may outlive the frame (then it lives on the heap) */
	bool valueescapes;  /* escape.c, a parameter: what it holds may outlive the call (its callers' view) */
	bool reassigned;    /* escape.c: assigned after its declaration (=, op=, ++/--, a := that reuses it, range =) */
	bool isalloc;       /* escape.c: an allocation site (new(T), &T{...}) */
	int loopdepth;      /* escape.c: loops around its declaration */
	bool isfield;
	bool ismethod;
	bool embedded;
	Obj *fn;            /* the function (Obj) or func literal owner a local belongs to */
	Node *fnlit;        /* the innermost N_FUNCLIT declaring it, if any */
	Vec refs;           /* package-level vars and funcs this object's code refers to */
	Package *imported;  /* O_PKG */
	/* back end */
	const char *cname;
	int slot;
	int objbit;         /* a stack object: 1 + its bit in the frame's dead mask (emitstmt.c, stackobject) */
	int emitted;
	int order;          /* package-level: declaration order */
	Type *recvtype;     /* methods: the receiver's base named type */
	bool ptrrecv;
	bool extern_;       /* function declared without a body: implemented in the runtime's C */
	bool cfunc;         /* //gl:extern: a C function, called through glc's wrapper (compiler/ffi.c) */
	const char *clib, *csym; /* cfunc: its library (NULL: the program's own) and symbol */
	int directives;
	Node *lit;          /* for func literals: the node */
};

typedef struct Scope Scope;
struct Scope {
	Scope *parent;
	Vec objs;
	Obj **hash;
	int hcap;
	bool isfunc;        /* the outermost scope of a function or func literal */
	Node *fn;           /* N_FUNCDECL or N_FUNCLIT of a function scope */
};

struct Package {
	const char *path;   /* "main", "fmt", "strings", "example.com/hello/greet" */
	const char *ipath;  /* the import path; for main, its directory's in the module
	                       or "command-line-arguments" (Go's internal/ rule, messages) */
	bool std;           /* a standard library package (from GLROOT's stdlib/) */
	bool bad;           /* stands for an import that failed (said once, at the import):
	                       its names are not reported again */
	const char *name;
	const char *cprefix;
	Vec files;          /* N_FILE */
	Scope *scope;
	Vec inits;          /* init functions */
	Vec vars;           /* package-level vars in initialization order (Obj*) */
	Vec funcs;          /* all functions and methods (Obj*) */
	Vec funclits;       /* N_FUNCLIT nodes */
	Vec types;          /* defined types (Obj*) */
	bool checked;
	int state;
	int order;
	Vec cnames;         /* back end: the package's file-scope C names */
	void *varinit;      /* back end: FuncInfo of its variable initializers */
	uint64_t key;       /* driver: the build cache's key */
	bool keydone;
};

/* ---- constants ---- */
enum ConstKind { CK_BOOL = 1, CK_INT, CK_FLOAT, CK_COMPLEX, CK_STRING };
typedef __int128 i128;
/* An exact integer constant: two's complement in 576 bits, so values up to
 * Go's limit of 512 bits are exact and overflow past it is detected. */
#define BIGW 9
typedef struct Big {
	uint64_t w[BIGW];
} Big;
/* An untyped float: q * 2^e, q an exact rational (const.c says when e is
 * not 0 and the value is rounded).  rounded: the value was once rounded
 * to PREC bits, and every result computed from it is rounded too (Go's
 * go/constant, once a value is a big.Float, stays in big.Float). */
typedef struct Real {
	mpq_t q;
	int64_t e;
	bool rounded;
} Real;
struct Const {
	int kind;
	bool b;
	Big i;
	Real re, im;        /* CK_FLOAT: re; CK_COMPLEX: re + im*i */
	const char *s;
	int64_t slen;
};

Const *cbool(bool b);
Const *cint(i128 v);
Const *cfloat(long double v);
Const *ccomplex(long double re, long double im);
Const *cstring(const char *s, int64_t n);
Const *cconvert(Const *c, int kind);        /* to CK_INT/CK_FLOAT/CK_COMPLEX; NULL if inexact */
Const *cbinary(Pos pos, int op, Const *x, Const *y, bool intdiv); /* NULL on error (reported) */
Const *cunary(Pos pos, int op, Const *x, Type *t);
Const *cshift(Pos pos, int op, Const *x, uint64_t s);
bool ccompare(int op, Const *x, Const *y);
bool crepresentable(Const *c, Type *t, Const **rounded); /* t basic; *rounded gets the value in t */
const char *cstr(Const *c);                 /* as Go prints it in messages */
void quote(Buf *b, const char *s, int64_t n, bool cut); /* strconv.Quote's form, cut at 72 runes if cut */
Const *parseintlit(Pos pos, const char *s);
Const *parsefloatlit(Pos pos, const char *s);
Const *parseimaglit(Pos pos, const char *s);
bool cisint(Const *c);                       /* value is integral */
bool cisintegral(Const *c);                  /* integral, even beyond 512 bits */
i128 ctoint(Const *c);          /* saturated to 128 bits */
bool cfits64(Const *c, bool unsig); /* an integer constant fits int64 (or uint64) */
long double ctofloat(Const *c);  /* the real part, rounded to a long double */
double ctodouble(Const *c, bool f32); /* the real part correctly rounded to float64 (float32) */
Const *crealpart(Const *c);          /* a numeric constant's real part, CK_FLOAT */
Const *cimagpart(Const *c);          /* its imaginary part, CK_FLOAT */
Const *cmkcomplex(Const *re, Const *im); /* complex(re, im) of numeric constants */
bool ciszero(Const *c);

/* ---- types ---- */
extern Type *types[T_NKINDS];        /* the basic and untyped types */
extern Type *t_byte, *t_rune, *t_error, *t_any, *t_bad, *t_emptyiface;
extern Package *unsafepkg, *builtinpkg;
extern Scope *universe;

Type *newtype(int kind);
Type *ptrto(Type *t);
Type *methodtype(Type *recv, Type *sig); /* T.M's type: func(T, params) results */
Type *sliceof(Type *t);
Type *arrayof(Type *t, int64_t n);
Type *mapof(Type *k, Type *v);
Type *chanof(Type *t, int dir);
Type *tupleof(Vec *types);
Type *under(Type *t);                /* underlying type */
bool isnamed(Type *t);               /* defined type or predeclared basic */
bool identical(Type *x, Type *y);
bool isinteger(Type *t);
bool isunsigned(Type *t);
bool isfloat(Type *t);
bool iscomplex(Type *t);
bool isnumeric(Type *t);
bool isstring(Type *t);
bool isboolean(Type *t);
bool isuntyped(Type *t);
bool isconstkind(Type *t);          /* basic types constants can have */
bool isinterface(Type *t);
bool ispointer(Type *t);
bool comparable(Type *t);
bool hasnil(Type *t);
bool isdirectiface(Type *t);        /* stored in an interface's data word directly */
bool haspointers(Type *t);
Type *defaulttype(Type *t);
const char *typestr(Type *t);       /* Go's spelling: "[]int", "main.T", "map[string]int" */
const char *typestrq(Type *t, Package *rel); /* qualified relative to a package, as in messages */
void layout(Type *t);               /* size, align, field offsets */
/* The largest size a type may have: Go 1.19's compiler on amd64 says a
 * type of 2^50 bytes or more is larger than the address space.  The
 * layout saturates sizes past it at maxTypeSize + 1, and the checker says
 * "larger than address space" (expr.c, checktypesizes). */
#define maxTypeSize (((int64_t)1 << 50) - 1)
int64_t tsize(Type *t);
int64_t talign(Type *t);
void completeiface(Type *t);        /* compute an interface's full method set */
Method *findmethod(Vec *ms, const char *name, Package *pkg);
bool exported(const char *name);

/* scopes */
Scope *newscope(Scope *parent);
Obj *lookuplocal(Scope *s, const char *name);
Obj *lookup(Scope *s, const char *name);
void declare(Scope *s, Obj *o); /* caller checks redeclaration */
Obj *newobj(int kind, const char *name, Pos pos);

void inittypes(void);

#endif
