/* ast.h — the syntax tree the parser builds and the checker annotates.
 *
 * One node type for everything keeps the parser's actions short.  Which
 * fields a kind uses is written next to it; fields not listed are unused.
 * The checker fills in type, cv (constant value), obj and the flags.
 */
#ifndef GLC_AST_H
#define GLC_AST_H

#include "util.h"

typedef struct Node Node;
typedef struct Type Type;
typedef struct Obj Obj;
typedef struct Const Const;
typedef struct Scope Scope;

enum NodeKind {
	N_BAD,
	/* expressions */
	N_IDENT,       /* name */
	N_INTLIT,      /* lit: source text */
	N_FLOATLIT,    /* lit */
	N_IMAGLIT,     /* lit */
	N_RUNELIT,     /* ival: the rune */
	N_STRLIT,      /* lit, litlen: decoded bytes */
	N_COMPLIT,     /* a: type (NULL when elided inside another literal), list: elements */
	N_KEYVAL,      /* a: key, b: value */
	N_FUNCLIT,     /* a: N_FUNCTYPE, b: body (N_BLOCK) */
	N_PAREN,       /* a */
	N_SELECTOR,    /* a: x, name: selected name */
	N_INDEX,       /* a: x, b: index */
	N_SLICEEXPR,   /* a: x, b: lo, c: hi, d: max; op = 3 for x[i:j:k] */
	N_TYPEASSERT,  /* a: x, b: type, or NULL for x.(type) */
	N_CALL,        /* a: function, list: arguments; op = 1 when the last has ... */
	N_STAR,        /* a: operand of * (dereference or pointer type) */
	N_UNARY,       /* op, a */
	N_BINARY,      /* op, a, b */
	/* type expressions */
	N_ARRAYTYPE,   /* a: length (NULL for a slice, N_ELLIPSIS for [...]T), b: element */
	N_MAPTYPE,     /* a: key, b: value */
	N_CHANTYPE,    /* op: 1 recv-only, 2 send-only, 3 both; a: element */
	N_FUNCTYPE,    /* list: parameters (N_FIELD), list2: results (N_FIELD) */
	N_STRUCTTYPE,  /* list: fields (N_FIELD) */
	N_IFACETYPE,   /* list: N_FIELD: methods (name + a: N_FUNCTYPE) or embedded (a: type) */
	N_FIELD,       /* list: names (N_IDENT, may be empty), a: type, lit: tag; op = 1 for ...T */
	N_ELLIPSIS,    /* a: element type (may be NULL) */
	/* statements */
	N_BLOCK,       /* list: statements */
	N_EXPRSTMT,    /* a */
	N_ASSIGN,      /* list: lhs, list2: rhs; op: 0 for =, else the binary operator of op= */
	N_DEFINE,      /* list: lhs identifiers, list2: rhs */
	N_INCDEC,      /* a; op: INC or DEC token */
	N_SEND,        /* a: channel, b: value */
	N_DECLSTMT,    /* list: N_VALUESPEC / N_TYPESPEC; op: CONST, VAR or TYPE token */
	N_IF,          /* a: init, b: cond, c: then (N_BLOCK), d: else (N_BLOCK or N_IF) */
	N_FOR,         /* a: init, b: cond, c: post, d: body */
	N_RANGE,       /* list: key [, value] (may be empty), a: x, d: body; op: 1 for :=, 0 for = */
	N_SWITCH,      /* a: init, b: tag (expression or NULL), list: N_CASE */
	N_TYPESWITCH,  /* a: init, name: bound variable (or NULL), b: x of x.(type), list: N_CASE */
	N_CASE,        /* list: expressions (empty for default), list2: statements; op = 1 for default */
	N_SELECT,      /* list: N_COMMCLAUSE */
	N_COMMCLAUSE,  /* a: send or receive statement (NULL for default), list2: statements */
	N_RETURN,      /* list: results */
	N_BRANCH,      /* op: BREAK/CONTINUE/GOTO/FALLTHROUGH token; name: label */
	N_LABELED,     /* name: label, a: statement */
	N_GO,          /* a: call */
	N_DEFER,       /* a: call */
	N_EMPTY,
	/* declarations */
	N_FILE,        /* name: package, list: imports, list2: declarations */
	N_IMPORT,      /* name: local name or NULL, lit: path */
	N_FUNCDECL,    /* name, a: receiver (N_FIELD) or NULL, b: N_FUNCTYPE, c: body or NULL; op: directives;
			* lit: //gl:extern's words */
	N_VALUESPEC,   /* list: names (N_IDENT), a: type, list2: values; ival: iota */
	N_TYPESPEC,    /* name, a: type; op = 1 for an alias; lit: //gl:ctype's C type ("" if bare) */
	N_NKINDS
};

/* directives on a function (//gl:...) */
/* DIR_WRAPPER: the function only passes a call on (reflect's callMakeFunc):
 * its record has no name, so recover sees through its frame and
 * tracebacks leave it out, as for glc's own wrappers */
/* DIR_EXTERN: //gl:extern [library] symbol above a body-less function:
 * a C function called through libffi (compiler/ffi.c, runtime/ffi.c) */
/* DIR_CTYPE: //gl:ctype C-type above a type declaration of the standard
 * library: the runtime's C names this type so (GlType for reflect's rtype);
 * glc contract (compiler/emit.c, writecontract) writes that name into the
 * runtime's prototypes and checks the two layouts field by field.  A bare
 * //gl:ctype: the runtime uses the type by glc's name (time.Time, which
 * timers send), so its layout goes into the contract even if no
 * body-less function takes it. */
/* DIR_NOESCAPE: //gl:noescape above a body-less function of the standard
 * library (Go's //go:noescape): the runtime's C neither keeps nor
 * publishes the pointers it is passed, so escape analysis lets them stay
 * where they are — in the caller's frame, if that is where they point
 * (the C then keeps S4: a pointer into a stack it may move is held as an
 * offset across the move, as runtime_readMemStats does). */
enum { DIR_NOINLINE = 1, DIR_NOSPLIT = 2, DIR_WRAPPER = 4, DIR_EXTERN = 8, DIR_CTYPE = 16, DIR_NOESCAPE = 32 };

struct Node {
	int kind;
	Pos pos;
	int op;
	Node *a, *b, *c, *d;
	Vec list, list2;
	const char *name;
	const char *lit;
	int litlen;
	int64_t ival;
	/* filled in by the checker */
	Type *type;
	Const *cv;      /* value of a constant expression */
	Obj *obj;       /* what an identifier or selector denotes */
	int flags;      /* NF_* */
	int implicit;   /* selector: embedded-field path depth / method value kind */
	Vec path;       /* selector through embedded fields: the Obj of each field */
	Scope *scope;   /* blocks, functions, clauses */
	void *aux;      /* FuncInfo of N_FUNCDECL / N_FUNCLIT; per-pass scratch elsewhere */
	void *meth;     /* N_SELECTOR of an interface method: its Method */
	Node *orig;     /* const specs repeating an earlier spec: the spec they copy */
};

enum {
	NF_TYPE = 1,        /* the expression denotes a type */
	NF_ADDRESSABLE = 2,
	NF_CALLEE_BUILTIN = 4,
	NF_CONVERSION = 8,  /* N_CALL that is a conversion */
	NF_METHODEXPR = 16,
	NF_COMMAOK = 32,    /* v, ok form (type assertion, map index, receive) */
	NF_USED = 64,
	NF_PKGNAME = 128,   /* identifier names an imported package */
	NF_TERMINATES = 256,
	NF_MAPINDEX = 512,  /* m[k]: assignable but not addressable */
	NF_NOVALUE = 1024,  /* a call with no results */
	NF_VAR = 2048,      /* denotes a variable */
	NF_BUILTIN = 4096,  /* denotes a built-in function */
	NF_NIL = 8192,      /* the predeclared nil */
	NF_HASCALL = 16384, /* contains a call or receive (len(x) is then not constant) */
	NF_IMPLICITADDR = 32768, /* elided composite literal of a pointer element type: &T{...} */
	NF_CHECKED = 65536,
	NF_SPREAD = 131072, /* N_CALL f(g()): g's several results are f's arguments */
};

Node *mknode(int kind, Pos pos);
/* Whether f(child, arg) holds for some child of n: a, b, c, d, then the
 * nodes of list and list2, in order (f takes NULL).  The walk every
 * search of a subtree shares; a visit of all of it returns false. */
bool anychild(Node *n, bool (*f)(Node *, void *), void *arg);
Node *clonetree(Node *n);
const char *nodekindname(int kind);

#endif
