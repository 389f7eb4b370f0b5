/* parser.c — feeds the lexer's tokens to the lemon parser. */
#include <stdlib.h>
#include <string.h>

#include "parser.h"
#include "parse.h"

void *glParseAlloc(void *(*)(size_t));
void glParse(void *, int, Token, ParseState *);
void glParseFree(void *, void (*)(void *));

/* Go's phrasing of the token the parser did not expect. */
static const char *unexpected(int major, Token *t) {
	switch (major) {
	case 0: return "EOF";
	case TK_SEMI: return t->s && !strcmp(t->s, "newline") ? "newline" : t->s && !strcmp(t->s, "EOF") ? "EOF" : "semicolon";
	case TK_IDENT: return xprintf("name %s", t->s);
	case TK_INT: case TK_FLOAT: case TK_IMAG: return xprintf("literal %s", t->s);
	case TK_STRING: return "literal";
	case TK_RUNE: return "literal";
	case TK_ASSIGN_OP: return xprintf("%s=", tokname((int)t->ival));
	}
	return tokname(major);
}

void parse_syntax_error(ParseState *ps, int major, Token *t) {
	if (ps->failed)
		return;
	ps->failed = 1;
	const char *what = unexpected(major, t);
	const int *r = ps->recent;
	/* type parameters: func F[ ..., or type T[P C] (type T[N] is an array) */
	bool generic = (major == TK_LBRACK && r[3] == TK_IDENT && r[2] == TK_FUNC) ||
		       (r[0] == TK_TYPE && r[1] == TK_IDENT && r[2] == TK_LBRACK && r[3] == TK_IDENT && major != TK_RBRACK);
	/* a few of Go's more specific messages */
	if (generic)
		errorat(t->pos, "syntax error: generics (type parameters) are not supported by gl");
	else if (ps->depth == 0 && ps->file->name && (ps->lasttok.code == TK_SEMI) && major != TK_FUNC && major != TK_VAR &&
	    major != TK_CONST && major != TK_TYPE && major != TK_IMPORT && major != 0)
		errorat(t->pos, "syntax error: non-declaration statement outside function body");
	else if (major == TK_LBRACE && ps->lasttok.code == TK_SEMI)
		errorat(t->pos, "syntax error: unexpected semicolon or newline before {");
	else if (major == TK_ELSE && ps->lasttok.code == TK_SEMI)
		errorat(t->pos, "syntax error: else must be followed by if or statement block");
	else if (major == 0)
		errorat(t->pos, "syntax error: unexpected EOF");
	else
		errorat(t->pos, "syntax error: unexpected %s", what);
}

Node *parsefile(int fileid, const char *src, size_t len) {
	Lexer lx;
	lex_init(&lx, fileid, src, len);
	ParseState ps = {0};
	ps.lx = &lx;
	ps.file = mknode(N_FILE, (Pos){fileid, 1, 1});
	void *p = glParseAlloc(malloc);
	Token t;
	int prev = 0;
	for (;;) {
		int code = lex_next(&lx, &t);
		if (code == 0) {
			t.code = 0;
			glParse(p, 0, t, &ps);
			break;
		}
		(void)prev;
		glParse(p, code, t, &ps);
		ps.lasttok = t;
		memmove(ps.recent, ps.recent + 1, 3 * sizeof ps.recent[0]);
		ps.recent[3] = code;
		if (code == TK_LBRACE || code == TK_LPAREN || code == TK_LBRACK) {
			/* the checker and the back end recurse on nesting: bound it
			 * (glc must not run out of stack on any input) */
			if (++ps.depth > 1000) {
				errorat(t.pos, "syntax error: nesting too deep");
				break;
			}
		}
		else if (code == TK_RBRACE || code == TK_RPAREN || code == TK_RBRACK)
			ps.depth--;
		prev = code;
		if (ps.failed)
			break;
	}
	glParseFree(p, free);
	if (!ps.file->name && !ps.failed)
		errorat((Pos){fileid, 1, 1}, "syntax error: package statement must be first");
	return ps.file;
}
