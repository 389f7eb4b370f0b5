/* ast.c — node construction. */
#include "ast.h"

Node *mknode(int kind, Pos pos) {
	Node *n = xalloc(sizeof *n);
	n->kind = kind;
	n->pos = pos;
	return n;
}

static void clonelist(Vec *dst, const Vec *src) {
	Vec v = {0};
	for (int i = 0; i < src->n; i++)
		vpush(&v, clonetree(src->v[i]));
	*dst = v;
}

/* A fresh, unchecked copy of a syntax tree.  The checker annotates nodes in
 * place (and checks calls and literals once), so an expression checked again
 * in another context -- an implicitly repeated const spec, with a different
 * iota -- must be a copy. */
Node *clonetree(Node *n) {
	if (!n)
		return NULL;
	Node *c = mknode(n->kind, n->pos);
	c->op = n->op;
	c->name = n->name;
	c->lit = n->lit;
	c->litlen = n->litlen;
	c->ival = n->ival;
	c->a = clonetree(n->a);
	c->b = clonetree(n->b);
	c->c = clonetree(n->c);
	c->d = clonetree(n->d);
	clonelist(&c->list, &n->list);
	clonelist(&c->list2, &n->list2);
	return c;
}

const char *nodekindname(int kind) {
	static const char *names[N_NKINDS] = {
		[N_BAD] = "bad", [N_IDENT] = "name", [N_INTLIT] = "literal", [N_FLOATLIT] = "literal",
		[N_IMAGLIT] = "literal", [N_RUNELIT] = "literal", [N_STRLIT] = "literal",
		[N_COMPLIT] = "composite literal", [N_FUNCLIT] = "func literal", [N_CALL] = "call",
	};
	return kind >= 0 && kind < N_NKINDS && names[kind] ? names[kind] : "expression";
}

bool anychild(Node *n, bool (*f)(Node *, void *), void *arg) {
	if (f(n->a, arg) || f(n->b, arg) || f(n->c, arg) || f(n->d, arg))
		return true;
	for (int i = 0; i < n->list.n; i++)
		if (f(n->list.v[i], arg))
			return true;
	for (int i = 0; i < n->list2.n; i++)
		if (f(n->list2.v[i], arg))
			return true;
	return false;
}
