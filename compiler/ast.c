/* ast.c — node construction. */
#include "ast.h"

Node *mknode(int kind, Pos pos) {
	Node *n = xalloc(sizeof *n);
	n->kind = kind;
	n->pos = pos;
	return n;
}

const char *nodekindname(int kind) {
	static const char *names[N_NKINDS] = {
		[N_BAD] = "bad", [N_IDENT] = "name", [N_INTLIT] = "literal", [N_FLOATLIT] = "literal",
		[N_IMAGLIT] = "literal", [N_RUNELIT] = "literal", [N_STRLIT] = "literal",
		[N_COMPLIT] = "composite literal", [N_FUNCLIT] = "func literal", [N_CALL] = "call",
	};
	return kind >= 0 && kind < N_NKINDS && names[kind] ? names[kind] : "expression";
}
