package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/server/servertest"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromium finds the browser: CASEGRAPH_CHROMIUM, else Debian's chromium on
// the PATH. Without one the test fails (CI installs it; so can anyone:
// apt-get install chromium): a browser test that skips proves nothing.
func chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CASEGRAPH_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium: install it (apt-get install chromium) or set CASEGRAPH_CHROMIUM; .ci/run installs it")
	return ""
}

// tab is one browser tab on the server at base, with what it has seen: every
// request it made, and every error it logged (script errors, CSP
// violations, failed loads) or dialog it opened.
type tab struct {
	t    testing.TB
	ctx  context.Context
	base string
	dir  string // where screenshots and downloads go

	mu       sync.Mutex
	requests []string
	problems []string
	shots    int
}

// openTab starts a headless Chromium whose network reaches only loopback
// (every other host fails to resolve) and opens a tab.
func openTab(t testing.TB, base string) *tab {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.WindowSize(1400, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	ctx, cancelTimeout := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancelTimeout)
	b := &tab{t: t, ctx: ctx, base: base, dir: artifactDir(t)}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	b.watch()
	if _, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: b.dir, EventsEnabled: ptr(true),
	}); err != nil {
		t.Fatal(err)
	}
	return b
}

func ptr[T any](v T) *T { return &v }

// readerServer is a server for the test whose key reads the dataset ds
// only, as an analyst's does.
func readerServer(t testing.TB, ds string) *servertest.Harness {
	t.Helper()
	return servertest.New(t, servertest.Options{Key: &casegraph.NewAPIKey{Name: "reader " + t.Name(), Role: casegraph.RoleReader, Datasets: []string{ds}}})
}

// artifactDir is the test's artifact folder (kept with go test -artifacts).
func artifactDir(t testing.TB) string {
	if a, ok := t.(interface{ ArtifactDir() string }); ok {
		return a.ArtifactDir()
	}
	return t.TempDir()
}

// watch records the tab's requests, errors and dialogs as they come.
func (b *tab) watch() {
	requests := chromedp.Events(b.ctx, network.RequestWillBeSent)
	entries := chromedp.Events(b.ctx, log.EntryAdded)
	exceptions := chromedp.Events(b.ctx, runtime.ExceptionThrown)
	consoles := chromedp.Events(b.ctx, runtime.ConsoleAPICalled)
	dialogs := chromedp.Events(b.ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range requests {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.requests = append(b.requests, ev.Request.URL)
			b.mu.Unlock()
		}
	}()
	problem := func(format string, args ...any) {
		b.mu.Lock()
		b.problems = append(b.problems, fmt.Sprintf(format, args...))
		b.mu.Unlock()
	}
	go func() {
		for ev, err := range entries {
			if err != nil {
				return
			}
			if ev.Entry.Level == log.EntryLevelError {
				problem("log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			}
		}
	}()
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			problem("exception: %s %v", ev.ExceptionDetails.Text, ev.ExceptionDetails.Exception.Description)
		}
	}()
	go func() {
		for ev, err := range consoles {
			if err != nil {
				return
			}
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problem("console.error: %s", strings.Join(args, " "))
			}
		}
	}()
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			problem("a dialog opened: %s", ev.Message)
			_, _ = chromedp.Call(b.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
}

// do runs actions, failing the test on an error.
func (b *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.shot("failed")
		b.t.Fatal(err)
	}
}

// js evaluates an expression (awaiting a promise) into T.
func js[T any](b *tab, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.shot("failed")
		b.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// until waits for a JavaScript condition to hold.
func (b *tab) until(what, cond string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(30*time.Second), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		b.shot("failed")
		b.mu.Lock()
		problems := slices.Clone(b.problems)
		b.mu.Unlock()
		b.t.Fatalf("waiting for %s (%s): %v; the page's alert: %q; its errors so far: %q", what, cond, err, b.visibleText("#alert"), problems)
	}
}

// text is the text of the first element matching a CSS selector, or "".
func (b *tab) text(sel string) string {
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q)?.textContent ?? ""`, sel)))
	if err != nil {
		return ""
	}
	return v
}

// visibleText is the text of the first element matching a CSS selector
// when it is shown, or "".
func (b *tab) visibleText(sel string) string {
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`(e => e && !e.hidden ? e.textContent : "")(document.querySelector(%q))`, sel)))
	if err != nil {
		return ""
	}
	return v
}

// shot saves a screenshot of the tab, numbered in the order taken.
func (b *tab) shot(name string) {
	buf, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	b.mu.Lock()
	b.shots++
	file := filepath.Join(b.dir, fmt.Sprintf("%02d-%s.png", b.shots, name))
	b.mu.Unlock()
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
	}
}

// offHost are the requests that went anywhere but the server (or stayed in
// the page: data: and blob: URLs).
func (b *tab) offHost() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, u := range b.requests {
		if strings.HasPrefix(u, b.base+"/") || u == b.base || strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "blob:") || u == "about:blank" {
			continue
		}
		out = append(out, u)
	}
	return out
}

// checkClean fails the test for every request to another host and every
// error the page logged.
func (b *tab) checkClean() {
	b.t.Helper()
	for _, u := range b.offHost() {
		b.t.Errorf("a request left the machine: %s", u)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		b.t.Errorf("the page logged: %s", p)
	}
	b.problems = nil
}

// expectProblem drops the logged errors that match want (an expected 401,
// say), failing when one does not show up.
func (b *tab) expectProblem(want string) {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.problems[:0]
	found := false
	for _, p := range b.problems {
		if strings.Contains(p, want) {
			found = true
			continue
		}
		kept = append(kept, p)
	}
	b.problems = kept
	if !found {
		b.t.Errorf("the page logged no %q", want)
	}
}

// download clicks a button that downloads a file and returns the file.
func (b *tab) download(sel string) []byte {
	b.t.Helper()
	_, body := b.downloadFile(sel)
	return body
}

// downloadFile clicks a button that downloads a file and returns the name
// the page gave it and the file.
func (b *tab) downloadFile(sel string) (string, []byte) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	names := map[string]string{} // by GUID
	var mu sync.Mutex
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*browser.EventDownloadWillBegin); ok {
			mu.Lock()
			names[e.GUID] = e.SuggestedFilename
			mu.Unlock()
		}
	}); err != nil {
		b.t.Fatal(err)
	}
	progress := chromedp.Events(b.ctx, browser.DownloadProgress)
	b.do(chromedp.Click(chromedp.CSS(sel)))
	for ev, err := range progress {
		if err != nil || ctx.Err() != nil {
			b.t.Fatalf("download by %s: %v", sel, errors.Join(err, ctx.Err()))
		}
		if ev.State != browser.DownloadProgressStateCompleted {
			continue
		}
		body, err := os.ReadFile(filepath.Join(b.dir, ev.GUID))
		if err != nil {
			b.t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		return names[ev.GUID], body
	}
	b.t.Fatalf("download by %s: no file", sel)
	return "", nil
}

// dblclickNode double-clicks a drawn entity where it is on the screen, as
// a user would.
func (b *tab) dblclickNode(id string) {
	b.t.Helper()
	x, y := b.onScreen(id)
	b.do(
		chromedp.MouseClickXY(x, y),
		chromedp.MouseClickXY(x, y, chromedp.ClickCount(2)),
	)
}

// onScreen is where a drawn element is on the screen: an entity's
// centre, a relation's midpoint.
func (b *tab) onScreen(id string) (x, y float64) {
	b.t.Helper()
	pos := js[struct{ X, Y float64 }](b, fmt.Sprintf(`(() => {
		const e = window.casegraph.canvas.cy.getElementById(%q);
		const p = e.isNode() ? e.renderedPosition() : e.renderedMidpoint(), box = document.getElementById("canvas").getBoundingClientRect();
		return { X: box.left + p.x, Y: box.top + p.y };
	})()`, id))
	return pos.X, pos.Y
}

// submitKey signs in with an API key through the sign-in dialog, as a
// user does, and waits for the explorer to be ready.
func (b *tab) submitKey(token string) {
	b.t.Helper()
	b.do(
		chromedp.Click(chromedp.ID("signin-button")),
		chromedp.SendKeys(chromedp.ID("signin-token"), token),
		chromedp.Click(chromedp.CSS(`#signin-form button[value="signin"]`)),
	)
	b.until("the explorer", `document.body.dataset.ready === "true"`)
}

// decode turns a response's data into a typed value.
func decode(t testing.TB, data map[string]any, out any) {
	t.Helper()
	b, err := json.Marshal(data)
	if err == nil {
		err = json.Unmarshal(b, out)
	}
	if err != nil {
		t.Fatal(err)
	}
}
