package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The packages this program adds to the copy it instruments, at these
// paths (the same as in this repository, so that one import path serves).
const (
	tracePkg = "bench/walk/walktrace"
	hookPkg  = "bench/walk/hook"
	// traceName is the name the instrumented files import walktrace by.
	traceName = "walktrace_"
	// filesList is where, in the copy, instrument lists the files it
	// instrumented, one a line, for measure -files; funcsList, beside it,
	// their functions (funcs.txt: file, from line.column, to line.column,
	// name), as they stand in the instrumented copy, which coverage's
	// positions refer to.
	filesList = "bench/walk/files.txt"
	funcsList = "bench/walk/funcs.txt"
)

// instrument rewrites the module in dir (a throw-away copy): every function
// body of every hand-written Go file starts with walktrace_.Enter(), on
// the line of its brace, so that no line moves and coverage's positions
// stay the source's; it adds walktrace and hook beside, a list of the
// files it instrumented (what the trace and the report call hand-written),
// and a blank import of hook to cmd/casegraph. It returns the module path
// and the instrumented files, relative to dir.
func instrument(dir string) (string, []string, error) {
	module, err := modulePath(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", nil, err
	}
	var files []string
	var funcs strings.Builder
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && skippedDir(rel, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		done, err := instrumentFile(path, module)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		if done {
			files = append(files, rel)
			return listFuncs(&funcs, path, module+"/"+rel)
		}
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	sort.Strings(files)
	if err := addPackages(dir, module, files); err != nil {
		return "", nil, err
	}
	return module, files, writeFile(filepath.Join(dir, funcsList), funcs.String())
}

// skippedDir says which folders hold no code of the server: dot and
// underscore folders, testdata, vendor, Node's packages, and bench/ (load
// generators, and this program's own packages).
func skippedDir(rel, name string) bool {
	switch {
	case strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"):
		return true
	case name == "testdata" || name == "vendor" || name == "node_modules":
		return true
	}
	return rel == "bench"
}

// instrumentFile puts the Enter calls into one file, unless it is
// generated (a "Code generated ... DO NOT EDIT." comment, Go's own rule:
// gqlgen's graph/generated and models_gen.go) or has no function body. It
// says whether it did.
func instrumentFile(path, module string) (bool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return false, err
	}
	if ast.IsGenerated(f) {
		return false, nil
	}
	var at []int // offsets just after each body's opening brace
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				at = append(at, fset.Position(n.Body.Lbrace).Offset+1)
			}
		case *ast.FuncLit:
			at = append(at, fset.Position(n.Body.Lbrace).Offset+1)
		}
		return true
	})
	if len(at) == 0 {
		return false, nil
	}
	// The import goes on the package clause's line, after the name.
	at = append(at, fset.Position(f.Name.End()).Offset)
	sort.Ints(at)
	importAt := fset.Position(f.Name.End()).Offset
	var out bytes.Buffer
	prev := 0
	for _, off := range at {
		out.Write(src[prev:off])
		if off == importAt {
			fmt.Fprintf(&out, "; import %s %s", traceName, strconv.Quote(module+"/"+tracePkg))
		} else {
			fmt.Fprintf(&out, " %s.Enter();", traceName)
		}
		prev = off
	}
	out.Write(src[prev:])
	return true, os.WriteFile(path, out.Bytes(), 0o644)
}

// listFuncs adds the functions of an instrumented file to funcs, as
// funcs.txt has them: each function and method, and each function literal
// outside them (in a package-level var), named by its line.
func listFuncs(funcs *strings.Builder, path, name string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("%s after instrumenting: %w", name, err)
	}
	add := func(n ast.Node, fname string) {
		from, to := fset.Position(n.Pos()), fset.Position(n.End())
		fmt.Fprintf(funcs, "%s\t%d.%d\t%d.%d\t%s\n", name, from.Line, from.Column, to.Line, to.Column, fname)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			if fd.Body != nil {
				add(fd, funcDeclName(fd))
			}
			continue
		}
		ast.Inspect(d, func(n ast.Node) bool {
			if fl, ok := n.(*ast.FuncLit); ok {
				add(fl, fmt.Sprintf("func literal of line %d", fset.Position(fl.Pos()).Line))
				return false
			}
			return true
		})
	}
	return nil
}

// funcDeclName is a function's name, with its receiver's type for a
// method: (*Store).Paths, Fold.
func funcDeclName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if p, ok := t.(*ast.StarExpr); ok {
		star, t = "*", p.X
	}
	switch x := t.(type) { // drop type parameters: List[T] is List
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		if star != "" {
			return "(*" + id.Name + ")." + fd.Name.Name
		}
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// addPackages writes walktrace, hook, walktrace's list of the instrumented
// files (as the runtime names them under -trimpath: module path and file),
// the same list as text for measure (filesList), and cmd/casegraph's
// import of hook.
func addPackages(dir, module string, files []string) error {
	for _, p := range []struct{ path, src string }{
		{tracePkg + "/walktrace.go", traceSource},
		{hookPkg + "/hook.go", hookSource},
	} {
		if err := writeFile(filepath.Join(dir, p.path), p.src); err != nil {
			return err
		}
	}
	var code, list strings.Builder
	code.WriteString("// Code generated by bench/walk. DO NOT EDIT.\n\npackage walktrace\n\nfunc init() {\n\tfor _, f := range []string{\n")
	for _, f := range files {
		fmt.Fprintf(&code, "\t\t%s,\n", strconv.Quote(module+"/"+f))
		fmt.Fprintf(&list, "%s/%s\n", module, f)
	}
	code.WriteString("\t} {\n\t\tinstrumented[f] = true\n\t}\n}\n")
	if err := writeFile(filepath.Join(dir, tracePkg, "zz_instrumented.go"), code.String()); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, filesList), list.String()); err != nil {
		return err
	}
	hook := fmt.Sprintf("// Code generated by bench/walk. DO NOT EDIT.\n\npackage main\n\nimport _ %s\n", strconv.Quote(module+"/"+hookPkg))
	return writeFile(filepath.Join(dir, "cmd/casegraph/zz_walk_hook.go"), hook)
}

func writeFile(path, src string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(src), 0o644)
}

// modulePath reads the module line of a go.mod.
func modulePath(gomod string) (string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}
