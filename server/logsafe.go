package server

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"unicode/utf8"

	"github.com/rs/zerolog"
)

// Logs never hold what a client sent (a body, a query document, variables,
// a token): a request of 1 MB that fails must not add 1 MB to the log, nor
// put a caller's data or credentials there. Text that may hold some of it
// (an error's message, a panic's value) is logged cut to maxLoggedText,
// with its size and a short hash when cut, so that two log lines about
// the same text can still be matched.

// maxLoggedText bounds text from a client in a log line or an answer.
const maxLoggedText = 200

// truncate cuts s to at most n bytes, at a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// shortHash is the first 12 hex digits of text's SHA-256.
func shortHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:6])
}

// logText adds text under key, cut to maxLoggedText; a cut text comes
// with its size (key_bytes) and short hash (key_sha256).
func logText(e *zerolog.Event, key, text string) *zerolog.Event {
	if len(text) <= maxLoggedText {
		return e.Str(key, text)
	}
	return logDigest(e.Str(key, truncate(text, maxLoggedText)), key, text)
}

// logErr is zerolog's Err with the message cut as logText cuts it.
func logErr(e *zerolog.Event, err error) *zerolog.Event {
	if err == nil {
		return e
	}
	return logText(e, zerolog.ErrorFieldName, err.Error())
}

// logPanic adds a recovered panic's value, cut, and the stack.
func logPanic(e *zerolog.Event, p any, stack []byte) *zerolog.Event {
	return logText(e, "panic", fmt.Sprint(p)).Bytes("stack", stack)
}

// logName adds a client's name for something (an operation's) when it is
// a GraphQL name of at most 64 characters, and otherwise only its size and
// short hash: a name may be a megabyte long.
func logName(e *zerolog.Event, key, name string) *zerolog.Event {
	if name == "" || graphQLName.MatchString(name) {
		return e.Str(key, name)
	}
	return logDigest(e, key, name)
}

// logPath adds a request's path when it is short enough to be one of the
// routes', and otherwise only its size and short hash.
func logPath(e *zerolog.Event, key, path string) *zerolog.Event {
	if len(path) <= maxLoggedText {
		return e.Str(key, path)
	}
	return logDigest(e, key, path)
}

func logDigest(e *zerolog.Event, key, text string) *zerolog.Event {
	return e.Int(key+"_bytes", len(text)).Str(key+"_sha256", shortHash(text))
}
