/* lex.re — gl's lexer, Go's lexical grammar.  re2c turns this into lex.c.
 *
 * Semicolons are inserted as Go's spec says: a newline (or the end of the
 * file, or a comment that contains a newline) ends the statement when the
 * line's last token is an identifier, a literal, one of the keywords break,
 * continue, fallthrough, return, or one of ++ -- ) ] }.
 */
#include "lexer.h"

#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "parse.h"
#include "unicode.h"

/*!re2c
	re2c:define:YYCTYPE = "unsigned char";
	re2c:define:YYCURSOR = lx->cur;
	re2c:define:YYMARKER = lx->mar;
	re2c:yyfill:enable = 0;

	nul = "\x00";
	letter = [a-zA-Z_] | [\x80-\xff];
	digit = [0-9];
	decdigits = digit ("_"? digit)*;
	hexdigit = [0-9a-fA-F];
	hexdigits = hexdigit ("_"? hexdigit)*;
	decexp = [eE] [+-]? decdigits;
	hexexp = [pP] [+-]? decdigits;
	intlit = decdigits
	       | "0" [xX] "_"? hexdigits
	       | "0" [bB] "_"? [01] ("_"? [01])*
	       | "0" [oO] "_"? [0-7] ("_"? [0-7])*;
	decfloat = decdigits "." decdigits? decexp? | decdigits decexp | "." decdigits decexp?;
	hexfloat = "0" [xX] ("_"? hexdigits "." hexdigits? | "_"? hexdigits | "." hexdigits) hexexp;
	esc = "\\" [^\n\x00];
*/

static Pos tokpos(Lexer *lx) {
	return (Pos){lx->file, lx->tokline, (int)(lx->tok - lx->toklinestart) + 1};
}

void lex_init(Lexer *lx, int file, const char *src, size_t len) {
	memset(lx, 0, sizeof *lx);
	lx->src = lx->cur = lx->linestart = (const unsigned char *)src;
	lx->lim = lx->src + len; /* src[len] must be NUL: the sentinel */
	lx->file = file;
	lx->line = 1;
	/* a byte order mark first is skipped, as Go does (editors on Windows
	 * write one); anywhere else it is an error (identchars) */
	if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
		lx->cur = lx->linestart = lx->src + 3;
}

static int32_t utf8dec(const unsigned char **pp, const unsigned char *e);

/* An identifier's runes past ASCII, as Go's scanner checks them: valid
 * UTF-8, no byte order mark, letters (digits after the first rune).  The
 * rule that matched the identifier takes any byte past 0x7F as a letter,
 * so the check is here. */
/* A character as Go's messages write it (fmt's %#U): U+0023 '#', and the
 * character itself only when it is printable (unicode.c's uniprint, Go's
 * unicode.IsPrint). */
static const char *uplus(int32_t r) {
	if (!uniprint(r))
		return xprintf("U+%04X", (unsigned)r);
	char u[5] = {0};
	if (r < 0x80)
		u[0] = (char)r;
	else if (r < 0x800)
		u[0] = (char)(0xC0 | r >> 6), u[1] = (char)(0x80 | (r & 0x3F));
	else if (r < 0x10000)
		u[0] = (char)(0xE0 | r >> 12), u[1] = (char)(0x80 | (r >> 6 & 0x3F)), u[2] = (char)(0x80 | (r & 0x3F));
	else
		u[0] = (char)(0xF0 | r >> 18), u[1] = (char)(0x80 | (r >> 12 & 0x3F)), u[2] = (char)(0x80 | (r >> 6 & 0x3F)),
		u[3] = (char)(0x80 | (r & 0x3F));
	return xprintf("U+%04X '%s'", (unsigned)r, u);
}

static void identchars(Lexer *lx) {
	const unsigned char *p = lx->tok;
	while (p < lx->cur) {
		if (*p < 0x80) {
			p++;
			continue;
		}
		Pos at = {lx->file, lx->line, (int)(p - lx->linestart) + 1};
		const unsigned char *q = p;
		int32_t r = utf8dec(&q, lx->cur);
		if (r < 0) {
			errorat(at, "invalid UTF-8 encoding");
			return;
		}
		if (r == 0xFEFF) {
			errorat(at, "invalid BOM in the middle of the file");
			return;
		}
		if (p == lx->tok && unidigit(r)) {
			errorat(at, "identifier cannot begin with digit %s", uplus(r));
			return;
		}
		if (!uniletter(r) && !unidigit(r)) {
			errorat(at, "invalid character %s in identifier", uplus(r));
			return;
		}
		p = q;
	}
}

static bool needsemi(int last) {
	switch (last) {
	case TK_IDENT: case TK_INT: case TK_FLOAT: case TK_IMAG: case TK_RUNE: case TK_STRING:
	case TK_BREAK: case TK_CONTINUE: case TK_FALLTHROUGH: case TK_RETURN:
	case TK_INC: case TK_DEC: case TK_RPAREN: case TK_RBRACK: case TK_RBRACE:
		return true;
	}
	return false;
}

static void adddirective(Lexer *lx, int bits, const char *arg) {
	if (lx->ndir == lx->capdir) {
		lx->capdir = lx->capdir ? lx->capdir * 2 : 8;
		lx->dirline = xrealloc(lx->dirline, lx->capdir * sizeof(int));
		lx->dirbits = xrealloc(lx->dirbits, lx->capdir * sizeof(int));
		lx->dirarg = xrealloc(lx->dirarg, lx->capdir * sizeof(char *));
	}
	lx->dirline[lx->ndir] = lx->line;
	lx->dirarg[lx->ndir] = arg;
	lx->dirbits[lx->ndir++] = bits;
}

const char *lex_directivearg(Lexer *lx, int line) {
	for (int i = 0; i < lx->ndir; i++)
		if (lx->dirline[i] == line && lx->dirarg[i])
			return lx->dirarg[i];
	return NULL;
}

int lex_directives(Lexer *lx, int line) {
	int bits = 0;
	for (int i = 0; i < lx->ndir; i++)
		if (lx->dirline[i] == line)
			bits |= lx->dirbits[i];
	return bits;
}

/* a //gl:name (or //go:name, so Go twins of gl programs keep working) comment */
static void directive(Lexer *lx, const unsigned char *s, const unsigned char *e) {
	size_t n = (size_t)(e - s);
	if (n < 5 || (memcmp(s, "//gl:", 5) != 0 && memcmp(s, "//go:", 5) != 0))
		return;
	s += 5;
	n -= 5;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n == 8 && memcmp(s, "noinline", 8) == 0)
		adddirective(lx, DIR_NOINLINE, NULL);
	else if (n == 7 && memcmp(s, "nosplit", 7) == 0)
		adddirective(lx, DIR_NOSPLIT, NULL);
	else if (n == 7 && memcmp(s, "wrapper", 7) == 0)
		adddirective(lx, DIR_WRAPPER, NULL);
	else if (n == 8 && memcmp(s, "noescape", 8) == 0)
		adddirective(lx, DIR_NOESCAPE, NULL);
	else if (n >= 6 && memcmp(s, "extern", 6) == 0 && (n == 6 || s[6] == ' ' || s[6] == '\t'))
		/* //gl:extern [library] symbol: a C function (compiler/ffi.c) */
		adddirective(lx, DIR_EXTERN, internn((const char *)s + 6, n - 6));
	else if (n == 5 && memcmp(s, "ctype", 5) == 0)
		/* //gl:ctype: the runtime uses the type by glc's name (compiler/emit.c, writecontract) */
		adddirective(lx, DIR_CTYPE, "");
	else if (n > 6 && memcmp(s, "ctype", 5) == 0 && (s[5] == ' ' || s[5] == '\t')) {
		/* //gl:ctype C-type: the runtime's name of a type (compiler/emit.c, writecontract) */
		size_t k = 6;
		while (k < n && (s[k] == ' ' || s[k] == '\t'))
			k++;
		adddirective(lx, DIR_CTYPE, internn((const char *)s + k, n - k));
	}
}

static int hexval(int c) {
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int utf8enc(char *p, uint32_t r) {
	if (r < 0x80) { p[0] = (char)r; return 1; }
	if (r < 0x800) { p[0] = (char)(0xC0 | r >> 6); p[1] = (char)(0x80 | (r & 0x3F)); return 2; }
	if (r < 0x10000) {
		p[0] = (char)(0xE0 | r >> 12); p[1] = (char)(0x80 | ((r >> 6) & 0x3F)); p[2] = (char)(0x80 | (r & 0x3F));
		return 3;
	}
	p[0] = (char)(0xF0 | r >> 18); p[1] = (char)(0x80 | ((r >> 12) & 0x3F));
	p[2] = (char)(0x80 | ((r >> 6) & 0x3F)); p[3] = (char)(0x80 | (r & 0x3F));
	return 4;
}

/* Decode one UTF-8 sequence at *pp (end e), and step past it.  Returns
 * -1 if invalid. */
static int32_t utf8dec(const unsigned char **pp, const unsigned char *e) {
	int n;
	int32_t r = utf8decode(*pp, e, &n);
	*pp += n;
	return r;
}

/* Decode one escape sequence starting at p (which points at the backslash).
 * quote is the enclosing quote character.  Appends to b; returns the rune
 * value for \u and \U and plain escapes, or -2 for a byte escape (\x, octal),
 * -1 after reporting an error. */
static int64_t unescape(Lexer *lx, const unsigned char **pp, const unsigned char *e, int quote, Buf *b) {
	const unsigned char *p = *pp + 1;
	Pos pos = {lx->file, lx->line, (int)(*pp - lx->linestart) + 1};
	int c = p < e ? *p : 0;
	int64_t v;
	int n = 0, base = 0;
	switch (c) {
	case 'a': v = 7; break;
	case 'b': v = 8; break;
	case 'f': v = 12; break;
	case 'n': v = 10; break;
	case 'r': v = 13; break;
	case 't': v = 9; break;
	case 'v': v = 11; break;
	case '\\': v = '\\'; break;
	case '\'': case '"':
		if (c != quote) {
			errorat(pos, "unknown escape sequence");
			*pp = p + 1;
			return -1;
		}
		v = c;
		break;
	case 'x': n = 2; base = 16; break;
	case 'u': n = 4; base = 16; break;
	case 'U': n = 8; base = 16; break;
	case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
		n = 3; base = 8; p--; break;
	default:
		errorat(pos, "unknown escape sequence");
		*pp = p + 1;
		return -1;
	}
	if (!n) {
		bputc(b, (char)v);
		*pp = p + 1;
		return v;
	}
	p++;
	v = 0;
	for (int i = 0; i < n; i++, p++) {
		int d = p < e ? hexval(*p) : -1;
		if (d < 0 || d >= base) {
			errorat(pos, "invalid character %s in %s escape", p < e && *p >= 32 && *p < 127 ? xprintf("'%c'", *p) : "",
				base == 8 ? "octal" : "hexadecimal");
			*pp = p;
			return -1;
		}
		v = v * base + d;
	}
	*pp = p;
	if (c == 'x' || base == 8) {
		if (v > 255) {
			errorat(pos, "octal escape value %lld > 255", (long long)v);
			return -1;
		}
		bputc(b, (char)v);
		return -2 - v; /* byte value, encoded below -1 */
	}
	if (v > 0x10FFFF || (v >= 0xD800 && v < 0xE000)) {
		errorat(pos, "escape is invalid Unicode code point %#llx", (unsigned long long)v);
		return -1;
	}
	char u[4];
	bputn(b, u, (size_t)utf8enc(u, (uint32_t)v));
	return v;
}

/* Go reads its source as UTF-8: inside a string or a comment too, an
 * invalid sequence is an error, and so is a BOM (past the file's start:
 * the one before the package clause is skipped).  Said once per token. */
static void utf8text(Lexer *lx, const unsigned char *p, const unsigned char *e) {
	int line = lx->tokline;
	const unsigned char *ls = lx->toklinestart;
	while (p < e) {
		if (*p == '\n') {
			line++;
			ls = ++p;
			continue;
		}
		if (*p < 0x80) {
			p++;
			continue;
		}
		const unsigned char *q = p;
		int32_t r = utf8dec(&q, e);
		if (r < 0 || r == 0xFEFF) {
			Pos at = {lx->file, line, (int)(p - ls) + 1};
			errorat(at, r < 0 ? "invalid UTF-8 encoding" : "invalid BOM in the middle of the file");
			return;
		}
		p = q;
	}
}

static void strlit(Lexer *lx, Token *t) {
	Buf b = {0};
	const unsigned char *p = lx->tok + 1, *e = lx->cur - 1;
	utf8text(lx, p, e);
	while (p < e) {
		if (*p == '\\')
			unescape(lx, &p, e, '"', &b);
		else
			bputc(&b, (char)*p++);
	}
	t->s = bstr(&b);
	t->len = (int)b.n;
}

static void rawstrlit(Lexer *lx, Token *t) {
	Buf b = {0};
	utf8text(lx, lx->tok + 1, lx->cur - 1);
	bput(&b, "");
	for (const unsigned char *p = lx->tok + 1; p < lx->cur - 1; p++) {
		if (*p == '\n') {
			lx->line++;
			lx->linestart = p + 1;
		}
		if (*p != '\r') /* carriage returns are discarded from raw strings */
			bputc(&b, (char)*p);
	}
	t->s = b.s;
	t->len = (int)b.n;
}

static void runelit(Lexer *lx, Token *t) {
	const unsigned char *p = lx->tok + 1, *e = lx->cur - 1;
	Buf b = {0};
	int64_t v = 0;
	int n = 0;
	while (p < e) {
		if (*p == '\\') {
			v = unescape(lx, &p, e, '\'', &b);
			if (v == -1)
				return;
			if (v < -1)
				v = -2 - v;
		} else {
			const unsigned char *q = p;
			v = utf8dec(&p, e);
			if (v < 0) {
				errorat(tokpos(lx), "invalid UTF-8 encoding");
				(void)q;
				return;
			}
		}
		n++;
	}
	if (n != 1)
		errorat(tokpos(lx), n == 0 ? "empty rune literal or unescaped ' in rune literal" : "more than one character in rune literal");
	t->ival = v;
}

const char *tokname(int code) {
	switch (code) {
	case 0: return "EOF";
	case TK_IDENT: return "name";
	case TK_INT: case TK_FLOAT: case TK_IMAG: case TK_RUNE: case TK_STRING: return "literal";
	case TK_SEMI: return "semicolon or newline";
	case TK_BREAK: return "keyword break";
	case TK_CASE: return "keyword case";
	case TK_CHAN: return "keyword chan";
	case TK_CONST: return "keyword const";
	case TK_CONTINUE: return "keyword continue";
	case TK_DEFAULT: return "keyword default";
	case TK_DEFER: return "keyword defer";
	case TK_ELSE: return "keyword else";
	case TK_FALLTHROUGH: return "keyword fallthrough";
	case TK_FOR: return "keyword for";
	case TK_FUNC: return "keyword func";
	case TK_GO: return "keyword go";
	case TK_GOTO: return "keyword goto";
	case TK_IF: return "keyword if";
	case TK_IMPORT: return "keyword import";
	case TK_INTERFACE: return "keyword interface";
	case TK_MAP: return "keyword map";
	case TK_PACKAGE: return "keyword package";
	case TK_RANGE: return "keyword range";
	case TK_RETURN: return "keyword return";
	case TK_SELECT: return "keyword select";
	case TK_STRUCT: return "keyword struct";
	case TK_SWITCH: return "keyword switch";
	case TK_TYPE: return "keyword type";
	case TK_VAR: return "keyword var";
	case TK_ADD: return "+";
	case TK_SUB: return "-";
	case TK_MUL: return "*";
	case TK_QUO: return "/";
	case TK_REM: return "%";
	case TK_AND: return "&";
	case TK_OR: return "|";
	case TK_XOR: return "^";
	case TK_SHL: return "<<";
	case TK_SHR: return ">>";
	case TK_AND_NOT: return "&^";
	case TK_ASSIGN_OP: return "op=";
	case TK_LAND: return "&&";
	case TK_LOR: return "||";
	case TK_ARROW: return "<-";
	case TK_INC: return "++";
	case TK_DEC: return "--";
	case TK_EQL: return "==";
	case TK_LSS: return "<";
	case TK_GTR: return ">";
	case TK_ASSIGN: return "=";
	case TK_NOT: return "!";
	case TK_NEQ: return "!=";
	case TK_LEQ: return "<=";
	case TK_GEQ: return ">=";
	case TK_DEFINE: return ":=";
	case TK_ELLIPSIS: return "...";
	case TK_LPAREN: return "(";
	case TK_LBRACK: return "[";
	case TK_LBRACE: return "{";
	case TK_COMMA: return "comma";
	case TK_PERIOD: return ".";
	case TK_RPAREN: return ")";
	case TK_RBRACK: return "]";
	case TK_RBRACE: return "}";
	case TK_COLON: return ":";
	case TK_TILDE: return "~";
	}
	return "token";
}

static int keyword(const unsigned char *s, size_t n) {
	static const struct { const char *w; int code; } kw[] = {
		{"break", TK_BREAK}, {"case", TK_CASE}, {"chan", TK_CHAN}, {"const", TK_CONST},
		{"continue", TK_CONTINUE}, {"default", TK_DEFAULT}, {"defer", TK_DEFER}, {"else", TK_ELSE},
		{"fallthrough", TK_FALLTHROUGH}, {"for", TK_FOR}, {"func", TK_FUNC}, {"go", TK_GO},
		{"goto", TK_GOTO}, {"if", TK_IF}, {"import", TK_IMPORT}, {"interface", TK_INTERFACE},
		{"map", TK_MAP}, {"package", TK_PACKAGE}, {"range", TK_RANGE}, {"return", TK_RETURN},
		{"select", TK_SELECT}, {"struct", TK_STRUCT}, {"switch", TK_SWITCH}, {"type", TK_TYPE},
		{"var", TK_VAR},
	};
	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (strlen(kw[i].w) == n && memcmp(kw[i].w, s, n) == 0)
			return kw[i].code;
	return TK_IDENT;
}

/* Scan one token, without semicolon insertion (lex_next does that). */
static int scan(Lexer *lx, Token *t) {
	int op;
loop:
	lx->tok = lx->cur;
	lx->tokline = lx->line;
	lx->toklinestart = lx->linestart;
	t->s = NULL;
	t->len = 0;
	t->ival = 0;
	/*!re2c
	nul {
		if (lx->cur - 1 == lx->lim) { lx->cur--; return 0; }
		errorat(tokpos(lx), "invalid NUL character");
		goto loop;
	}
	[ \t\r]+ { goto loop; }
	"\n" {
		Pos p = tokpos(lx);
		lx->line++;
		lx->linestart = lx->cur;
		if (needsemi(lx->last)) { t->s = "newline"; lx->semipos = p; return -1; }
		goto loop;
	}
	"//" [^\n\x00]* { utf8text(lx, lx->tok, lx->cur); directive(lx, lx->tok, lx->cur); goto loop; }
	"/*" {
		bool nl = false;
		Pos p = tokpos(lx);
		for (;;) {
			if (lx->cur >= lx->lim) { errorat(tokpos(lx), "comment not terminated"); return 0; }
			if (lx->cur[0] == '*' && lx->cur[1] == '/') { lx->cur += 2; break; }
			if (*lx->cur == '\n') { nl = true; lx->line++; lx->linestart = lx->cur + 1; }
			lx->cur++;
		}
		utf8text(lx, lx->tok, lx->cur);
		if (nl && needsemi(lx->last)) { t->s = "newline"; lx->semipos = p; return -1; }
		goto loop;
	}
	letter (letter | digit)* {
		size_t n = (size_t)(lx->cur - lx->tok);
		identchars(lx);
		int k = keyword(lx->tok, n);
		if (k == TK_IDENT) { t->s = internn((const char *)lx->tok, n); t->len = (int)n; }
		return k;
	}
	intlit { goto number; }
	(decfloat | hexfloat) { t->s = xstrndup((const char *)lx->tok, (size_t)(lx->cur - lx->tok)); return TK_FLOAT; }
	(intlit | decfloat | hexfloat) "i" { t->s = xstrndup((const char *)lx->tok, (size_t)(lx->cur - lx->tok)); return TK_IMAG; }
	["] ([^"\\\n\x00] | esc)* ["] { strlit(lx, t); return TK_STRING; }
	["] ([^"\\\n\x00] | esc)* { errorat(tokpos(lx), "string literal not terminated"); t->s = ""; return TK_STRING; }
	"`" [^`\x00]* "`" { rawstrlit(lx, t); return TK_STRING; }
	"`" [^`\x00]* { errorat(tokpos(lx), "raw string literal not terminated"); t->s = ""; return TK_STRING; }
	['] ([^'\\\n\x00] | esc)* ['] { runelit(lx, t); return TK_RUNE; }
	['] ([^'\\\n\x00] | esc)* { errorat(tokpos(lx), "rune literal not terminated"); return TK_RUNE; }

	"+"  { return TK_ADD; }
	"-"  { return TK_SUB; }
	"*"  { return TK_MUL; }
	"/"  { return TK_QUO; }
	"%"  { return TK_REM; }
	"&"  { return TK_AND; }
	"|"  { return TK_OR; }
	"^"  { return TK_XOR; }
	"<<" { return TK_SHL; }
	">>" { return TK_SHR; }
	"&^" { return TK_AND_NOT; }
	"+="  { op = TK_ADD; goto assignop; }
	"-="  { op = TK_SUB; goto assignop; }
	"*="  { op = TK_MUL; goto assignop; }
	"/="  { op = TK_QUO; goto assignop; }
	"%="  { op = TK_REM; goto assignop; }
	"&="  { op = TK_AND; goto assignop; }
	"|="  { op = TK_OR; goto assignop; }
	"^="  { op = TK_XOR; goto assignop; }
	"<<=" { op = TK_SHL; goto assignop; }
	">>=" { op = TK_SHR; goto assignop; }
	"&^=" { op = TK_AND_NOT; goto assignop; }
	"&&" { return TK_LAND; }
	"||" { return TK_LOR; }
	"<-" { return TK_ARROW; }
	"++" { return TK_INC; }
	"--" { return TK_DEC; }
	"==" { return TK_EQL; }
	"<"  { return TK_LSS; }
	">"  { return TK_GTR; }
	"="  { return TK_ASSIGN; }
	"!"  { return TK_NOT; }
	"!=" { return TK_NEQ; }
	"<=" { return TK_LEQ; }
	">=" { return TK_GEQ; }
	":=" { return TK_DEFINE; }
	"..." { return TK_ELLIPSIS; }
	"("  { return TK_LPAREN; }
	"["  { return TK_LBRACK; }
	"{"  { return TK_LBRACE; }
	","  { return TK_COMMA; }
	"."  { return TK_PERIOD; }
	")"  { return TK_RPAREN; }
	"]"  { return TK_RBRACK; }
	"}"  { return TK_RBRACE; }
	";"  { return TK_SEMI; }
	":"  { return TK_COLON; }
	"~"  { return TK_TILDE; }
	* {
		const unsigned char *p = lx->tok;
		int32_t r = utf8dec(&p, lx->lim);
		lx->cur = p > lx->tok ? p : lx->tok + 1;
		if (r < 0)
			errorat(tokpos(lx), "invalid UTF-8 encoding");
		else
			errorat(tokpos(lx), "invalid character %s", uplus(r));
		goto loop;
	}
	*/
assignop:
	t->ival = op;
	return TK_ASSIGN_OP;
number:
	/* a legacy octal literal 0777 may not contain 8 or 9 */
	if (lx->tok[0] == '0' && lx->cur - lx->tok > 1 && lx->tok[1] >= '0' && lx->tok[1] <= '9') {
		for (const unsigned char *p = lx->tok; p < lx->cur; p++)
			if (*p == '8' || *p == '9') {
				errorat(tokpos(lx), "invalid digit '%c' in octal literal", *p);
				break;
			}
	}
	t->s = xstrndup((const char *)lx->tok, (size_t)(lx->cur - lx->tok));
	return TK_INT;
}

int lex_next(Lexer *lx, Token *t) {
	int code = scan(lx, t);
	if (code == -1) {
		/* a newline after a token that ends a statement: the semicolon is
		 * reported at the end of the previous line, as Go does */
		code = TK_SEMI;
		t->pos = lx->semipos;
	} else if (code == 0 && needsemi(lx->last)) {
		code = TK_SEMI; /* the end of the file ends a statement too */
		t->s = "EOF";
		t->pos = tokpos(lx);
		lx->last = TK_SEMI;
		return code;
	} else {
		t->pos = tokpos(lx);
	}
	t->code = code;
	lx->last = code;
	return code;
}
