package walktrace

// onGoroutine runs f on a goroutine of its own and waits for it; this
// file is not marked instrumented, so f's stack has no caller of an
// instrumented file.
func onGoroutine(f func()) {
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	<-done
}
