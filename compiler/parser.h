/* parser.h — the state shared by the lemon actions and the driver. */
#ifndef GLC_PARSER_H
#define GLC_PARSER_H

#include "ast.h"
#include "lexer.h"

typedef struct ParseState {
	Lexer *lx;
	Node *file;
	Token lasttok;
	int recent[4]; /* the codes of the last four tokens, recent[3] the last: for messages */
	int iota;
	int failed;
	int depth; /* nesting of brackets, for messages */
} ParseState;

void parse_syntax_error(ParseState *ps, int major, Token *t);
Node *mkswitch(ParseState *ps, Pos p, Node *init, Node *tag, Vec *clauses);
/* parse one file; returns its N_FILE node (errors are reported) */
Node *parsefile(int fileid, const char *src, size_t len);

#endif
