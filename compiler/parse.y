/* parse.y — gl's grammar, for the lemon parser generator.
 *
 * Go's syntax.  The one ambiguity Go resolves outside its grammar is the
 * composite literal in a control clause: in `if x == T{} {` the first brace
 * could open the literal or the block.  Go says it opens the block unless
 * the literal's type is a literal type ([]T, [N]T, map[K]V, struct{...}) or
 * the expression is parenthesized.  We say the same thing in the grammar:
 * control clauses use a copy of the expression grammar (hexpr, the "header
 * expression") in which only a literal type may be followed by a brace.
 * Inside parentheses, brackets and braces the full grammar applies again.
 */

%include {
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "lexer.h"
#include "parse.h"
#include "parser.h"

static Node *nd(int kind, Pos p) { return mknode(kind, p); }
static Vec *vnew(void) { return xalloc(sizeof(Vec)); }
static Vec *vone(void *x) { Vec *v = vnew(); vpush(v, x); return v; }
static Node *ident(Token t) { Node *n = nd(N_IDENT, t.pos); n->name = t.s; return n; }
static Node *unary(Token op, Node *x) { Node *n = nd(N_UNARY, op.pos); n->op = op.code; n->a = x; return n; }
/* <-x.  When x is a channel type, the arrow belongs to it: <-chan T is a
 * receive-only channel type, and <-chan<- T is <-chan (<-chan T): each
 * send-only level passes the arrow on to its element. */
static Node *recvexpr(ParseState *ps, Token op, Node *x) {
	if (x->kind != N_CHANTYPE)
		return unary(op, x);
	int dir = 2;
	Node *t = x;
	for (; dir == 2 && t && t->kind == N_CHANTYPE; t = t->a) {
		dir = t->op;
		if (dir == 1) {
			errorat(t->pos, "syntax error: unexpected <-, expecting chan");
			ps->failed = 1;
		}
		t->op = 1;
	}
	if (dir == 2) {
		errorat(t ? t->pos : op.pos, "syntax error: unexpected %s, expecting chan", t && t->kind == N_IDENT ? t->name : "type");
		ps->failed = 1;
	}
	x->pos = op.pos;
	return x;
}
static Node *binary(Node *x, Token op, Node *y) {
	Node *n = nd(N_BINARY, op.pos);
	n->op = op.code;
	n->a = x;
	n->b = y;
	return n;
}
static Node *lit(int kind, Token t) {
	Node *n = nd(kind, t.pos);
	n->lit = t.s;
	n->litlen = t.len;
	n->ival = t.ival;
	return n;
}
static Node *withlist(Node *n, Vec *v) { if (v) n->list = *v; return n; }
static Node *withlist2(Node *n, Vec *v) { if (v) n->list2 = *v; return n; }

/* In a parameter list `a, b int, c string` the parser first sees a and b
 * as types; once a named parameter appears, unnamed ones before it are
 * names that share the next type (Go's parser does the same). */
static void fixparams(ParseState *ps, Vec *fields) {
	bool named = false;
	for (int i = 0; i < fields->n; i++)
		if (((Node *)fields->v[i])->list.n)
			named = true;
	if (!named)
		return;
	Vec out = {0}, pending = {0};
	for (int i = 0; i < fields->n; i++) {
		Node *f = fields->v[i];
		if (f->list.n) {
			Node *g = f;
			if (pending.n) {
				g = nd(N_FIELD, ((Node *)pending.v[0])->pos);
				for (int j = 0; j < pending.n; j++)
					vpush(&g->list, pending.v[j]);
				for (int j = 0; j < f->list.n; j++)
					vpush(&g->list, f->list.v[j]);
				g->a = f->a;
				g->op = f->op;
				pending.n = 0;
			}
			vpush(&out, g);
		} else if (f->a && f->a->kind == N_IDENT && !f->op) {
			vpush(&pending, f->a);
		} else {
			errorat(f->pos, "syntax error: mixed named and unnamed parameters");
			ps->failed = 1;
			return;
		}
	}
	if (pending.n) {
		errorat(((Node *)pending.v[0])->pos, "syntax error: mixed named and unnamed parameters");
		ps->failed = 1;
		return;
	}
	*fields = out;
}

static Node *functype(ParseState *ps, Pos p, Vec *params, Vec *results) {
	Node *n = nd(N_FUNCTYPE, p);
	if (params) {
		fixparams(ps, params);
		n->list = *params;
	}
	if (results) {
		fixparams(ps, results);
		n->list2 = *results;
	}
	return n;
}

static Node *field(Vec *names, Node *type) {
	Node *f = nd(N_FIELD, names && names->n ? ((Node *)names->v[0])->pos : type->pos);
	if (names)
		f->list = *names;
	f->a = type;
	return f;
}

static Node *assign(Vec *lhs, Token op, Vec *rhs, int kind) {
	Node *n = nd(kind, op.pos);
	n->list = *lhs;
	n->list2 = *rhs;
	if (op.code == TK_ASSIGN_OP)
		n->op = (int)op.ival;
	return n;
}

static Node *valuespec(ParseState *ps, Vec *names, Node *type, Vec *values) {
	Node *n = nd(N_VALUESPEC, ((Node *)names->v[0])->pos);
	n->list = *names;
	n->a = type;
	if (values)
		n->list2 = *values;
	n->ival = ps->iota++;
	return n;
}

/* The //gl: directives on the lines just above line (up to 8, without a
 * gap): their DIR_* bits, and the argument of the nearest that has one. */
static int directivesabove(ParseState *ps, int line, const char **arg) {
	int bits = 0;
	for (int l = line - 1; l > 0 && l >= line - 8; l--) {
		int d = lex_directives(ps->lx, l);
		if (!d)
			break;
		bits |= d;
		const char *a = lex_directivearg(ps->lx, l);
		if (a && !*arg)
			*arg = a;
	}
	return bits;
}

static Node *funcdecl(ParseState *ps, Token f, Token name, Node *recv, Node *sig, Node *body) {
	Node *n = nd(N_FUNCDECL, name.pos);
	n->name = name.s;
	n->a = recv;
	n->b = sig;
	n->c = body;
	/* //gl: directives on the lines just above the func keyword */
	n->op = directivesabove(ps, f.pos.line, &n->lit);
	return n;
}

static Node *typespec(ParseState *ps, Token name, Node *type, bool alias) {
	Node *n = nd(N_TYPESPEC, name.pos);
	n->name = name.s;
	n->a = type;
	n->op = alias;
	const char *arg = NULL;
	if (directivesabove(ps, name.pos.line, &arg) & DIR_CTYPE)
		n->lit = arg;
	return n;
}
}

%name glParse
%token_prefix TK_
%token_type {Token}
%default_type {Node *}
%extra_argument {ParseState *ps}
%start_symbol file

%syntax_error {
	parse_syntax_error(ps, yymajor, &yyminor);
}
%stack_overflow {
	errorat(ps->lasttok.pos, "syntax error: nesting too deep");
	ps->failed = 1;
}
%stack_size 0

%token IDENT INT FLOAT IMAG RUNE STRING.
%token BREAK CASE CHAN CONST CONTINUE DEFAULT DEFER ELSE FALLTHROUGH FOR FUNC GO GOTO IF IMPORT
       INTERFACE MAP PACKAGE RANGE RETURN SELECT STRUCT SWITCH TYPE VAR.
%token ADD SUB MUL QUO REM AND OR XOR SHL SHR AND_NOT ASSIGN_OP.
%token LAND LOR ARROW INC DEC EQL LSS GTR ASSIGN NOT NEQ LEQ GEQ DEFINE ELLIPSIS.
%token LPAREN LBRACK LBRACE COMMA PERIOD RPAREN RBRACK RBRACE SEMI COLON TILDE.

/* LOWEST is never lexed: it ranks the rules that must yield to a brace
 * or to a token that continues a type: a literal type or a func type
 * followed by `{` is a composite literal or a function literal, never the
 * end of an expression; `func() *T` has a result; `[]pkg.T` is qualified. */
%nonassoc LOWEST.
%nonassoc LBRACE LPAREN LBRACK PERIOD ARROW.
%left LOR.
%left LAND.
%left EQL NEQ LSS LEQ GTR GEQ.
%left ADD SUB OR XOR.
%left MUL QUO REM SHL SHR AND AND_NOT.

/* ------------------------------------------------------------ files */

file ::= pkgclause SEMI importdecls topdecls.

pkgclause ::= PACKAGE IDENT(N). { ps->file->name = N.s; ps->file->pos = N.pos; }

importdecls ::= .
importdecls ::= importdecls importdecl SEMI.
importdecl ::= IMPORT importspec.
importdecl ::= IMPORT LPAREN importspecs RPAREN.
importspecs ::= .
importspecs ::= importspeclist.
importspecs ::= importspeclist SEMI.
importspeclist ::= importspec.
importspeclist ::= importspeclist SEMI importspec.
importspec ::= STRING(S). { Node *n = nd(N_IMPORT, S.pos); n->lit = S.s; vpush(&ps->file->list, n); }
importspec ::= IDENT(N) STRING(S). { Node *n = nd(N_IMPORT, S.pos); n->name = N.s; n->lit = S.s; vpush(&ps->file->list, n); }
importspec ::= PERIOD(D) STRING(S). { errorat(D.pos, "dot imports are not supported"); (void)S; }

topdecls ::= .
topdecls ::= topdecls topdecl SEMI.
topdecl ::= declstmt(D). { vpush(&ps->file->list2, D); }
topdecl ::= funcdecl(D). { vpush(&ps->file->list2, D); }

funcdecl(A) ::= FUNC(F) IDENT(N) signature(S) optbody(B). { A = funcdecl(ps, F, N, NULL, S, B); }
funcdecl(A) ::= FUNC(F) LPAREN param(R) RPAREN IDENT(N) signature(S) optbody(B). {
	if (R->list.n > 1 || R->op)
		errorat(R->pos, "invalid receiver");
	A = funcdecl(ps, F, N, R, S, B);
}
funcdecl(A) ::= FUNC(F) LPAREN RPAREN IDENT(N) signature(S) optbody(B). {
	errorat(F.pos, "method has no receiver");
	A = funcdecl(ps, F, N, NULL, S, B);
}
optbody(A) ::= . { A = NULL; }
optbody(A) ::= block(B). { A = B; }

/* ------------------------------------------------------------ declarations */

declstmt(A) ::= CONST(K) constspec(S). { A = nd(N_DECLSTMT, K.pos); A->op = TK_CONST; vpush(&A->list, S); S->ival = 0; }
declstmt(A) ::= CONST(K) LPAREN constspecs(L) RPAREN. {
	A = withlist(nd(N_DECLSTMT, K.pos), L);
	A->op = TK_CONST;
	for (int i = 0; i < A->list.n; i++) /* iota: the spec's index in its group */
		((Node *)A->list.v[i])->ival = i;
}
declstmt(A) ::= VAR(K) varspec(S). { A = nd(N_DECLSTMT, K.pos); A->op = TK_VAR; vpush(&A->list, S); }
declstmt(A) ::= VAR(K) LPAREN varspecs(L) RPAREN. { A = withlist(nd(N_DECLSTMT, K.pos), L); A->op = TK_VAR; }
declstmt(A) ::= TYPE(K) typespec(S). { A = nd(N_DECLSTMT, K.pos); A->op = TK_TYPE; vpush(&A->list, S); }
declstmt(A) ::= TYPE(K) LPAREN typespecs(L) RPAREN. { A = withlist(nd(N_DECLSTMT, K.pos), L); A->op = TK_TYPE; }

%type constspecs {Vec *}
%type constspeclist {Vec *}
constspecs(A) ::= . { A = vnew(); }
constspecs(A) ::= constspeclist(L). { A = L; }
constspecs(A) ::= constspeclist(L) SEMI. { A = L; }
constspeclist(A) ::= constspec(S). { A = vone(S); }
constspeclist(A) ::= constspeclist(L) SEMI constspec(S). { A = L; vpush(A, S); }
constspec(A) ::= identlist(N). { A = valuespec(ps, N, NULL, NULL); }
constspec(A) ::= identlist(N) ASSIGN exprlist(V). { A = valuespec(ps, N, NULL, V); }
constspec(A) ::= identlist(N) typ(T) ASSIGN exprlist(V). { A = valuespec(ps, N, T, V); }

%type varspecs {Vec *}
%type varspeclist {Vec *}
varspecs(A) ::= . { A = vnew(); }
varspecs(A) ::= varspeclist(L). { A = L; }
varspecs(A) ::= varspeclist(L) SEMI. { A = L; }
varspeclist(A) ::= varspec(S). { A = vone(S); }
varspeclist(A) ::= varspeclist(L) SEMI varspec(S). { A = L; vpush(A, S); }
varspec(A) ::= identlist(N) typ(T). { A = valuespec(ps, N, T, NULL); }
varspec(A) ::= identlist(N) typ(T) ASSIGN exprlist(V). { A = valuespec(ps, N, T, V); }
varspec(A) ::= identlist(N) ASSIGN exprlist(V). { A = valuespec(ps, N, NULL, V); }

%type typespecs {Vec *}
%type typespeclist {Vec *}
typespecs(A) ::= . { A = vnew(); }
typespecs(A) ::= typespeclist(L). { A = L; }
typespecs(A) ::= typespeclist(L) SEMI. { A = L; }
typespeclist(A) ::= typespec(S). { A = vone(S); }
typespeclist(A) ::= typespeclist(L) SEMI typespec(S). { A = L; vpush(A, S); }
typespec(A) ::= IDENT(N) typ(T). { A = typespec(ps, N, T, false); }
typespec(A) ::= IDENT(N) ASSIGN typ(T). { A = typespec(ps, N, T, true); }

%type identlist {Vec *}
identlist(A) ::= IDENT(N). { A = vone(ident(N)); }
identlist(A) ::= identlist(L) COMMA IDENT(N). { A = L; vpush(A, ident(N)); }

/* ------------------------------------------------------------ types */

typ(A) ::= typename(T). { A = T; }
typ(A) ::= MUL(S) typ(T). { A = nd(N_STAR, S.pos); A->a = T; }
typ(A) ::= LBRACK(L) RBRACK typ(T). { A = nd(N_ARRAYTYPE, L.pos); A->b = T; }
typ(A) ::= LBRACK(L) expr(N) RBRACK typ(T). { A = nd(N_ARRAYTYPE, L.pos); A->a = N; A->b = T; }
typ(A) ::= LBRACK(L) ELLIPSIS(E) RBRACK typ(T). { A = nd(N_ARRAYTYPE, L.pos); A->a = nd(N_ELLIPSIS, E.pos); A->b = T; }
typ(A) ::= MAP(M) LBRACK typ(K) RBRACK typ(V). { A = nd(N_MAPTYPE, M.pos); A->a = K; A->b = V; }
typ(A) ::= chantype(T). { A = T; }
typ(A) ::= FUNC(F) signature(S). { A = S; A->pos = F.pos; }
typ(A) ::= structtype(T). { A = T; }
typ(A) ::= ifacetype(T). { A = T; }

typename(A) ::= IDENT(N). [LOWEST] { A = ident(N); }
typename(A) ::= IDENT(P) PERIOD IDENT(N). { A = nd(N_SELECTOR, N.pos); A->a = ident(P); A->name = N.s; }

/* `chan<- chan int` is chan<- (chan int): <- binds to the leftmost chan */
chantype(A) ::= CHAN(C) typ(T). [ARROW] { A = nd(N_CHANTYPE, C.pos); A->op = 3; A->a = T; }
chantype(A) ::= CHAN(C) ARROW typ(T). { A = nd(N_CHANTYPE, C.pos); A->op = 2; A->a = T; }
chantype(A) ::= ARROW(R) CHAN typ(T). [LOWEST] { A = nd(N_CHANTYPE, R.pos); A->op = 1; A->a = T; }

structtype(A) ::= STRUCT(S) LBRACE fielddecls(L) RBRACE. { A = withlist(nd(N_STRUCTTYPE, S.pos), L); }
%type fielddecls {Vec *}
%type fieldlist {Vec *}
fielddecls(A) ::= . { A = vnew(); }
fielddecls(A) ::= fieldlist(L). { A = L; }
fielddecls(A) ::= fieldlist(L) SEMI. { A = L; }
fieldlist(A) ::= fielddecl(F). { A = vone(F); }
fieldlist(A) ::= fieldlist(L) SEMI fielddecl(F). { A = L; vpush(A, F); }
fielddecl(A) ::= identlist(N) typ(T) tag(G). { A = field(N, T); A->lit = G.s; A->litlen = G.len; }
fielddecl(A) ::= typename(T) tag(G). { A = field(NULL, T); A->op = 2; A->lit = G.s; A->litlen = G.len; }
fielddecl(A) ::= MUL(S) typename(T) tag(G). {
	Node *p = nd(N_STAR, S.pos);
	p->a = T;
	A = field(NULL, p);
	A->op = 2;
	A->lit = G.s;
	A->litlen = G.len;
}
%type tag {Token}
tag(A) ::= . { memset(&A, 0, sizeof A); }
tag(A) ::= STRING(S). { A = S; }

ifacetype(A) ::= INTERFACE(I) LBRACE ifaceelems(L) RBRACE. { A = withlist(nd(N_IFACETYPE, I.pos), L); }
%type ifaceelems {Vec *}
%type ifaceelemlist {Vec *}
ifaceelems(A) ::= . { A = vnew(); }
ifaceelems(A) ::= ifaceelemlist(L). { A = L; }
ifaceelems(A) ::= ifaceelemlist(L) SEMI. { A = L; }
ifaceelemlist(A) ::= ifaceelem(E). { A = vone(E); }
ifaceelemlist(A) ::= ifaceelemlist(L) SEMI ifaceelem(E). { A = L; vpush(A, E); }
ifaceelem(A) ::= IDENT(N) signature(S). { A = field(vone(ident(N)), S); }
ifaceelem(A) ::= typename(T). { A = field(NULL, T); }

/* signatures: parameter lists, results */
signature(A) ::= params(P) result(R). { A = functype(ps, ps->lasttok.pos, P, R); }
%type params {Vec *}
%type paramlist {Vec *}
%type result {Vec *}
params(A) ::= LPAREN RPAREN. { A = vnew(); }
params(A) ::= LPAREN paramlist(L) optcomma RPAREN. { A = L; }
paramlist(A) ::= param(P). { A = vone(P); }
paramlist(A) ::= paramlist(L) COMMA param(P). { A = L; vpush(A, P); }
param(A) ::= typ(T). { A = field(NULL, T); }
param(A) ::= IDENT(N) typ(T). { A = field(vone(ident(N)), T); }
param(A) ::= IDENT(N) ELLIPSIS typ(T). { A = field(vone(ident(N)), T); A->op = 1; }
param(A) ::= ELLIPSIS typ(T). { A = field(NULL, T); A->op = 1; }
result(A) ::= . [LOWEST] { A = NULL; }
result(A) ::= typ(T). { A = vone(field(NULL, T)); }
result(A) ::= LPAREN RPAREN. { A = vnew(); }
result(A) ::= LPAREN paramlist(L) optcomma RPAREN. { A = L; }

optcomma ::= .
optcomma ::= COMMA.

/* ------------------------------------------------------------ expressions */

%type exprlist {Vec *}
exprlist(A) ::= expr(E). { A = vone(E); }
exprlist(A) ::= exprlist(L) COMMA expr(E). { A = L; vpush(A, E); }

expr(A) ::= uexpr(E). { A = E; }
expr(A) ::= expr(X) LOR(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) LAND(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) EQL(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) NEQ(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) LSS(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) LEQ(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) GTR(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) GEQ(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) ADD(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) SUB(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) OR(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) XOR(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) MUL(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) QUO(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) REM(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) SHL(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) SHR(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) AND(O) expr(Y). { A = binary(X, O, Y); }
expr(A) ::= expr(X) AND_NOT(O) expr(Y). { A = binary(X, O, Y); }

uexpr(A) ::= pexpr(E). { A = E; }
uexpr(A) ::= ADD(O) uexpr(X). { A = unary(O, X); }
uexpr(A) ::= SUB(O) uexpr(X). { A = unary(O, X); }
uexpr(A) ::= NOT(O) uexpr(X). { A = unary(O, X); }
uexpr(A) ::= XOR(O) uexpr(X). { A = unary(O, X); }
uexpr(A) ::= AND(O) uexpr(X). { A = unary(O, X); }
uexpr(A) ::= ARROW(O) uexpr(X). { A = recvexpr(ps, O, X); }
uexpr(A) ::= MUL(O) uexpr(X). { A = nd(N_STAR, O.pos); A->a = X; }

pexpr(A) ::= operand(E). { A = E; }
pexpr(A) ::= pexpr(X) PERIOD IDENT(N). { A = nd(N_SELECTOR, N.pos); A->a = X; A->name = N.s; }
pexpr(A) ::= pexpr(X) PERIOD(D) LPAREN typ(T) RPAREN. { A = nd(N_TYPEASSERT, D.pos); A->a = X; A->b = T; }
pexpr(A) ::= pexpr(X) PERIOD(D) LPAREN TYPE RPAREN. { A = nd(N_TYPEASSERT, D.pos); A->a = X; }
pexpr(A) ::= pexpr(X) LBRACK(L) expr(I) RBRACK. { A = nd(N_INDEX, L.pos); A->a = X; A->b = I; }
pexpr(A) ::= pexpr(X) LBRACK(L) optexpr(I) COLON optexpr(J) RBRACK. { A = nd(N_SLICEEXPR, L.pos); A->a = X; A->b = I; A->c = J; }
pexpr(A) ::= pexpr(X) LBRACK(L) optexpr(I) COLON expr(J) COLON expr(K) RBRACK. {
	A = nd(N_SLICEEXPR, L.pos); A->a = X; A->b = I; A->c = J; A->d = K; A->op = 3;
}
pexpr(A) ::= pexpr(X) LPAREN(L) RPAREN. { A = nd(N_CALL, L.pos); A->a = X; }
pexpr(A) ::= pexpr(X) LPAREN(L) exprlist(E) optcomma RPAREN. { A = withlist(nd(N_CALL, L.pos), E); A->a = X; }
pexpr(A) ::= pexpr(X) LPAREN(L) exprlist(E) ELLIPSIS optcomma RPAREN. { A = withlist(nd(N_CALL, L.pos), E); A->a = X; A->op = 1; }
pexpr(A) ::= pexpr(X) LBRACE(L) complitbody(E) RBRACE. { A = withlist(nd(N_COMPLIT, L.pos), E); A->a = X; }

optexpr(A) ::= . { A = NULL; }
optexpr(A) ::= expr(E). { A = E; }

operand(A) ::= INT(T). { A = lit(N_INTLIT, T); }
operand(A) ::= FLOAT(T). { A = lit(N_FLOATLIT, T); }
operand(A) ::= IMAG(T). { A = lit(N_IMAGLIT, T); }
operand(A) ::= RUNE(T). { A = lit(N_RUNELIT, T); }
operand(A) ::= STRING(T). { A = lit(N_STRLIT, T); }
operand(A) ::= IDENT(N). { A = ident(N); }
operand(A) ::= LPAREN(L) expr(E) RPAREN. { A = nd(N_PAREN, L.pos); A->a = E; }
operand(A) ::= funclit(F). { A = F; }
operand(A) ::= littype(T). { A = T; }
operand(A) ::= othertype(T). { A = T; }
operand(A) ::= FUNC(F) signature(S). [LOWEST] { A = S; A->pos = F.pos; }

/* types that may be followed by a composite literal's brace even in a
 * control clause */
littype(A) ::= LBRACK(L) RBRACK typ(T). { A = nd(N_ARRAYTYPE, L.pos); A->b = T; }
littype(A) ::= LBRACK(L) expr(N) RBRACK typ(T). { A = nd(N_ARRAYTYPE, L.pos); A->a = N; A->b = T; }
littype(A) ::= LBRACK(L) ELLIPSIS(E) RBRACK typ(T). { A = nd(N_ARRAYTYPE, L.pos); A->a = nd(N_ELLIPSIS, E.pos); A->b = T; }
littype(A) ::= MAP(M) LBRACK typ(K) RBRACK typ(V). { A = nd(N_MAPTYPE, M.pos); A->a = K; A->b = V; }
littype(A) ::= structtype(T). { A = T; }
othertype(A) ::= CHAN(C) typ(T). { A = nd(N_CHANTYPE, C.pos); A->op = 3; A->a = T; }
othertype(A) ::= CHAN(C) ARROW typ(T). { A = nd(N_CHANTYPE, C.pos); A->op = 2; A->a = T; }
othertype(A) ::= ifacetype(T). { A = T; }

funclit(A) ::= FUNC(F) signature(S) block(B). { A = nd(N_FUNCLIT, F.pos); A->a = S; A->b = B; }

%type complitbody {Vec *}
%type elemlist {Vec *}
complitbody(A) ::= . { A = vnew(); }
complitbody(A) ::= elemlist(L) optcomma. { A = L; }
elemlist(A) ::= elem(E). { A = vone(E); }
elemlist(A) ::= elemlist(L) COMMA elem(E). { A = L; vpush(A, E); }
elem(A) ::= elemval(V). { A = V; }
elem(A) ::= elemval(K) COLON(C) elemval(V). { A = nd(N_KEYVAL, C.pos); A->a = K; A->b = V; }
elemval(A) ::= expr(E). { A = E; }
elemval(A) ::= LBRACE(L) complitbody(E) RBRACE. { A = withlist(nd(N_COMPLIT, L.pos), E); }

/* ---- header expressions: the same, without T{...} for a type name T */

%type hexprlist {Vec *}
hexprlist(A) ::= hexpr(E). { A = vone(E); }
hexprlist(A) ::= hexprlist(L) COMMA hexpr(E). { A = L; vpush(A, E); }

hexpr(A) ::= huexpr(E). { A = E; }
hexpr(A) ::= hexpr(X) LOR(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) LAND(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) EQL(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) NEQ(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) LSS(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) LEQ(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) GTR(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) GEQ(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) ADD(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) SUB(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) OR(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) XOR(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) MUL(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) QUO(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) REM(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) SHL(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) SHR(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) AND(O) hexpr(Y). { A = binary(X, O, Y); }
hexpr(A) ::= hexpr(X) AND_NOT(O) hexpr(Y). { A = binary(X, O, Y); }

huexpr(A) ::= hpexpr(E). { A = E; }
huexpr(A) ::= ADD(O) huexpr(X). { A = unary(O, X); }
huexpr(A) ::= SUB(O) huexpr(X). { A = unary(O, X); }
huexpr(A) ::= NOT(O) huexpr(X). { A = unary(O, X); }
huexpr(A) ::= XOR(O) huexpr(X). { A = unary(O, X); }
huexpr(A) ::= AND(O) huexpr(X). { A = unary(O, X); }
huexpr(A) ::= ARROW(O) huexpr(X). { A = recvexpr(ps, O, X); }
huexpr(A) ::= MUL(O) huexpr(X). { A = nd(N_STAR, O.pos); A->a = X; }

hpexpr(A) ::= hoperand(E). { A = E; }
hpexpr(A) ::= hpexpr(X) PERIOD IDENT(N). { A = nd(N_SELECTOR, N.pos); A->a = X; A->name = N.s; }
hpexpr(A) ::= hpexpr(X) PERIOD(D) LPAREN typ(T) RPAREN. { A = nd(N_TYPEASSERT, D.pos); A->a = X; A->b = T; }
hpexpr(A) ::= hpexpr(X) PERIOD(D) LPAREN TYPE RPAREN. { A = nd(N_TYPEASSERT, D.pos); A->a = X; }
hpexpr(A) ::= hpexpr(X) LBRACK(L) expr(I) RBRACK. { A = nd(N_INDEX, L.pos); A->a = X; A->b = I; }
hpexpr(A) ::= hpexpr(X) LBRACK(L) optexpr(I) COLON optexpr(J) RBRACK. { A = nd(N_SLICEEXPR, L.pos); A->a = X; A->b = I; A->c = J; }
hpexpr(A) ::= hpexpr(X) LBRACK(L) optexpr(I) COLON expr(J) COLON expr(K) RBRACK. {
	A = nd(N_SLICEEXPR, L.pos); A->a = X; A->b = I; A->c = J; A->d = K; A->op = 3;
}
hpexpr(A) ::= hpexpr(X) LPAREN(L) RPAREN. { A = nd(N_CALL, L.pos); A->a = X; }
hpexpr(A) ::= hpexpr(X) LPAREN(L) exprlist(E) optcomma RPAREN. { A = withlist(nd(N_CALL, L.pos), E); A->a = X; }
hpexpr(A) ::= hpexpr(X) LPAREN(L) exprlist(E) ELLIPSIS optcomma RPAREN. { A = withlist(nd(N_CALL, L.pos), E); A->a = X; A->op = 1; }
hpexpr(A) ::= littype(X) LBRACE(L) complitbody(E) RBRACE. { A = withlist(nd(N_COMPLIT, L.pos), E); A->a = X; }

hoperand(A) ::= INT(T). { A = lit(N_INTLIT, T); }
hoperand(A) ::= FLOAT(T). { A = lit(N_FLOATLIT, T); }
hoperand(A) ::= IMAG(T). { A = lit(N_IMAGLIT, T); }
hoperand(A) ::= RUNE(T). { A = lit(N_RUNELIT, T); }
hoperand(A) ::= STRING(T). { A = lit(N_STRLIT, T); }
hoperand(A) ::= IDENT(N). { A = ident(N); }
hoperand(A) ::= LPAREN(L) expr(E) RPAREN. { A = nd(N_PAREN, L.pos); A->a = E; }
hoperand(A) ::= funclit(F). { A = F; }
hoperand(A) ::= littype(T). [LOWEST] { A = T; }
hoperand(A) ::= othertype(T). { A = T; }
hoperand(A) ::= FUNC(F) signature(S). [LOWEST] { A = S; A->pos = F.pos; }

/* ------------------------------------------------------------ statements */

block(A) ::= LBRACE(L) stmtlist(S) RBRACE(R). { A = withlist(nd(N_BLOCK, L.pos), S); A->ival = R.pos.line; }

%type stmtlist {Vec *}
stmtlist(A) ::= stmt(S). { A = vnew(); if (S) vpush(A, S); }
stmtlist(A) ::= stmtlist(L) SEMI stmt(S). { A = L; if (S) vpush(A, S); }

stmt(A) ::= . { A = NULL; }
stmt(A) ::= declstmt(S). { A = S; }
stmt(A) ::= simplestmt(S). { A = S; }
stmt(A) ::= IDENT(N) COLON stmt(S). {
	A = nd(N_LABELED, N.pos);
	A->name = N.s;
	A->a = S ? S : nd(N_EMPTY, N.pos);
}
stmt(A) ::= GO(K) expr(E). { A = nd(N_GO, K.pos); A->a = E; }
stmt(A) ::= DEFER(K) expr(E). { A = nd(N_DEFER, K.pos); A->a = E; }
stmt(A) ::= RETURN(K). { A = nd(N_RETURN, K.pos); }
stmt(A) ::= RETURN(K) exprlist(L). { A = withlist(nd(N_RETURN, K.pos), L); }
stmt(A) ::= BREAK(K). { A = nd(N_BRANCH, K.pos); A->op = TK_BREAK; }
stmt(A) ::= BREAK(K) IDENT(N). { A = nd(N_BRANCH, K.pos); A->op = TK_BREAK; A->name = N.s; }
stmt(A) ::= CONTINUE(K). { A = nd(N_BRANCH, K.pos); A->op = TK_CONTINUE; }
stmt(A) ::= CONTINUE(K) IDENT(N). { A = nd(N_BRANCH, K.pos); A->op = TK_CONTINUE; A->name = N.s; }
stmt(A) ::= GOTO(K) IDENT(N). { A = nd(N_BRANCH, K.pos); A->op = TK_GOTO; A->name = N.s; }
stmt(A) ::= FALLTHROUGH(K). { A = nd(N_BRANCH, K.pos); A->op = TK_FALLTHROUGH; }
stmt(A) ::= block(B). { A = B; }
stmt(A) ::= ifstmt(S). { A = S; }
stmt(A) ::= switchstmt(S). { A = S; }
stmt(A) ::= selectstmt(S). { A = S; }
stmt(A) ::= forstmt(S). { A = S; }

simplestmt(A) ::= expr(E). { A = nd(N_EXPRSTMT, E->pos); A->a = E; }
simplestmt(A) ::= expr(C) ARROW(O) expr(V). { A = nd(N_SEND, O.pos); A->a = C; A->b = V; }
simplestmt(A) ::= expr(E) INC(O). { A = nd(N_INCDEC, O.pos); A->a = E; A->op = TK_INC; }
simplestmt(A) ::= expr(E) DEC(O). { A = nd(N_INCDEC, O.pos); A->a = E; A->op = TK_DEC; }
simplestmt(A) ::= exprlist(L) ASSIGN(O) exprlist(R). { A = assign(L, O, R, N_ASSIGN); }
simplestmt(A) ::= exprlist(L) DEFINE(O) exprlist(R). { A = assign(L, O, R, N_DEFINE); }
simplestmt(A) ::= expr(L) ASSIGN_OP(O) expr(R). { A = assign(vone(L), O, vone(R), N_ASSIGN); }

hsimplestmt(A) ::= hexpr(E). { A = nd(N_EXPRSTMT, E->pos); A->a = E; }
hsimplestmt(A) ::= hexpr(C) ARROW(O) hexpr(V). { A = nd(N_SEND, O.pos); A->a = C; A->b = V; }
hsimplestmt(A) ::= hexpr(E) INC(O). { A = nd(N_INCDEC, O.pos); A->a = E; A->op = TK_INC; }
hsimplestmt(A) ::= hexpr(E) DEC(O). { A = nd(N_INCDEC, O.pos); A->a = E; A->op = TK_DEC; }
hsimplestmt(A) ::= hexprlist(L) ASSIGN(O) hexprlist(R). { A = assign(L, O, R, N_ASSIGN); }
hsimplestmt(A) ::= hexprlist(L) DEFINE(O) hexprlist(R). { A = assign(L, O, R, N_DEFINE); }
hsimplestmt(A) ::= hexpr(L) ASSIGN_OP(O) hexpr(R). { A = assign(vone(L), O, vone(R), N_ASSIGN); }

ifstmt(A) ::= IF(K) hexpr(C) block(B). { A = nd(N_IF, K.pos); A->b = C; A->c = B; }
ifstmt(A) ::= IF(K) hsimplestmt(I) SEMI hexpr(C) block(B). { A = nd(N_IF, K.pos); A->a = I; A->b = C; A->c = B; }
ifstmt(A) ::= IF(K) hexpr(C) block(B) ELSE elsepart(E). { A = nd(N_IF, K.pos); A->b = C; A->c = B; A->d = E; }
ifstmt(A) ::= IF(K) hsimplestmt(I) SEMI hexpr(C) block(B) ELSE elsepart(E). {
	A = nd(N_IF, K.pos); A->a = I; A->b = C; A->c = B; A->d = E;
}
ifstmt(A) ::= IF(K) block(B). { errorat(K.pos, "missing condition in if statement"); A = nd(N_IF, K.pos); A->c = B; }
elsepart(A) ::= ifstmt(S). { A = S; }
elsepart(A) ::= block(B). { A = B; }

forstmt(A) ::= FOR(K) block(B). { A = nd(N_FOR, K.pos); A->d = B; }
forstmt(A) ::= FOR(K) hexpr(C) block(B). { A = nd(N_FOR, K.pos); A->b = C; A->d = B; }
forstmt(A) ::= FOR(K) hsimpleopt(I) SEMI hexpropt(C) SEMI hsimpleopt(P) block(B). {
	A = nd(N_FOR, K.pos); A->a = I; A->b = C; A->c = P; A->d = B;
}
forstmt(A) ::= FOR(K) RANGE hexpr(X) block(B). { A = nd(N_RANGE, K.pos); A->a = X; A->d = B; }
forstmt(A) ::= FOR(K) hexprlist(L) ASSIGN RANGE hexpr(X) block(B). { A = withlist(nd(N_RANGE, K.pos), L); A->a = X; A->d = B; }
forstmt(A) ::= FOR(K) hexprlist(L) DEFINE RANGE hexpr(X) block(B). {
	A = withlist(nd(N_RANGE, K.pos), L); A->a = X; A->d = B; A->op = 1;
}
hsimpleopt(A) ::= . { A = NULL; }
hsimpleopt(A) ::= hsimplestmt(S). { A = S; }
hexpropt(A) ::= . { A = NULL; }
hexpropt(A) ::= hexpr(E). { A = E; }

switchstmt(A) ::= SWITCH(K) LBRACE caseclauses(L) RBRACE. { A = withlist(nd(N_SWITCH, K.pos), L); }
switchstmt(A) ::= SWITCH(K) hsimplestmt(T) LBRACE caseclauses(L) RBRACE. { A = mkswitch(ps, K.pos, NULL, T, L); }
switchstmt(A) ::= SWITCH(K) hsimpleopt(I) SEMI LBRACE caseclauses(L) RBRACE. { A = mkswitch(ps, K.pos, I, NULL, L); }
switchstmt(A) ::= SWITCH(K) hsimpleopt(I) SEMI hsimplestmt(T) LBRACE caseclauses(L) RBRACE. { A = mkswitch(ps, K.pos, I, T, L); }
%type caseclauses {Vec *}
caseclauses(A) ::= . { A = vnew(); }
caseclauses(A) ::= caseclauses(L) caseclause(C). { A = L; vpush(A, C); }
caseclause(A) ::= CASE(K) exprlist(E) COLON stmtlist(S). { A = withlist2(withlist(nd(N_CASE, K.pos), E), S); }
caseclause(A) ::= DEFAULT(K) COLON stmtlist(S). { A = withlist2(nd(N_CASE, K.pos), S); A->op = 1; }

selectstmt(A) ::= SELECT(K) LBRACE commclauses(L) RBRACE. { A = withlist(nd(N_SELECT, K.pos), L); }
%type commclauses {Vec *}
commclauses(A) ::= . { A = vnew(); }
commclauses(A) ::= commclauses(L) commclause(C). { A = L; vpush(A, C); }
commclause(A) ::= CASE(K) simplestmt(S) COLON stmtlist(L). { A = withlist2(nd(N_COMMCLAUSE, K.pos), L); A->a = S; }
commclause(A) ::= DEFAULT(K) COLON stmtlist(L). { A = withlist2(nd(N_COMMCLAUSE, K.pos), L); A->op = 1; }

%code {
/* A switch whose tag is `x.(type)` or `v := x.(type)` is a type switch. */
Node *mkswitch(ParseState *ps, Pos p, Node *init, Node *tag, Vec *clauses) {
	(void)ps;
	Node *n = nd(N_SWITCH, p);
	n->a = init;
	n->list = *clauses;
	if (!tag)
		return n;
	if (tag->kind == N_EXPRSTMT && tag->a->kind == N_TYPEASSERT && !tag->a->b) {
		n->kind = N_TYPESWITCH;
		n->b = tag->a;
	} else if (tag->kind == N_DEFINE && tag->list.n == 1 && tag->list2.n == 1 &&
		   ((Node *)tag->list2.v[0])->kind == N_TYPEASSERT && !((Node *)tag->list2.v[0])->b &&
		   ((Node *)tag->list.v[0])->kind == N_IDENT) {
		n->kind = N_TYPESWITCH;
		n->b = tag->list2.v[0];
		n->name = ((Node *)tag->list.v[0])->name;
		n->ival = 1;
		n->pos = ((Node *)tag->list.v[0])->pos;
		n->op = p.line; /* keep the keyword's line for messages */
		n->c = tag->list.v[0];
	} else if (tag->kind == N_EXPRSTMT) {
		n->b = tag->a;
	} else {
		errorat(tag->pos, "syntax error: cannot use %s as value", tag->kind == N_DEFINE ? "assignment" : "statement");
	}
	return n;
}
}
