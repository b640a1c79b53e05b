// Package benchflag holds the command-line values the bench tools that
// drive servers over HTTP share (bench/pathload, bench/hostile).
package benchflag

import (
	"fmt"
	"strings"
)

// Server is one endpoint a tool measures, by the name its figures carry.
type Server struct{ Name, URL string }

// Servers is a repeatable flag of NAME=URL (a URL alone is named
// "casegraph"), for tools that measure several builds in turn.
type Servers []Server

func (s *Servers) String() string { return fmt.Sprint(*s) }

// Set adds one NAME=URL.
func (s *Servers) Set(v string) error {
	name, url, ok := strings.Cut(v, "=")
	if !ok {
		name, url = "casegraph", v
	}
	if url == "" {
		return fmt.Errorf("%q names no URL", v)
	}
	*s = append(*s, Server{name, url})
	return nil
}
