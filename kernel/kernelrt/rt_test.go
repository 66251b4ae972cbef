package kernelrt

import (
	"errors"
	"testing"
	"time"

	"github.com/neurogo/neurogo/interrupt"
)

// These tests use the process's interrupt flag: they do not run in
// parallel.

func TestExitPanicsOnlyOnTheCellGoroutine(t *testing.T) {
	SetRunning(true)
	defer SetRunning(false)
	SetCellGoroutine()
	func() {
		defer func() {
			r := recover()
			ex, ok := r.(ExitPanic)
			if !ok || ex.Code != 3 {
				t.Errorf("Exit(3) on the cell goroutine: recovered %v, want ExitPanic{3}", r)
			}
		}()
		ExitVia(nil)(3)
		t.Error("Exit returned")
	}()
	if onCellGoroutine() != true {
		t.Error("the test goroutine is the cell's")
	}
	other := make(chan bool)
	go func() { other <- onCellGoroutine() }()
	if <-other {
		t.Error("another goroutine counted as the cell's")
	}
}

func TestSleepStopsOnInterrupt(t *testing.T) {
	BeginCell()
	t.Cleanup(BeginCell)
	go func() {
		time.Sleep(50 * time.Millisecond)
		Interrupt()
	}()
	t0 := time.Now()
	SleepVia(nil)(time.Hour)
	if d := time.Since(t0); d > 2*time.Second {
		t.Fatalf("Sleep(1h) returned %v after the interrupt, want at once", d)
	}
	if !Interrupted() || !interrupt.Requested() {
		t.Error("interrupt flag not set")
	}
	BeginCell()
	if Interrupted() {
		t.Error("BeginCell did not clear the flag")
	}
	t0 = time.Now()
	Sleep(20 * time.Millisecond)
	if d := time.Since(t0); d < 20*time.Millisecond {
		t.Errorf("Sleep(20ms) returned after %v", d)
	}
}

func TestRecvAndPoll(t *testing.T) {
	BeginCell()
	t.Cleanup(BeginCell)
	ch := make(chan int, 1)
	ch <- 7
	if v := Recv(ch); v != 7 {
		t.Errorf("Recv = %d, want 7", v)
	}
	Poll() // no interrupt: returns
	go func() {
		time.Sleep(30 * time.Millisecond)
		Interrupt()
	}()
	for _, f := range []func(){func() { Recv(make(chan int)) }, Poll} {
		func() {
			defer func() {
				if _, ok := recover().(InterruptPanic); !ok {
					t.Error("no InterruptPanic after the interrupt")
				}
			}()
			f()
			time.Sleep(100 * time.Millisecond)
			f()
		}()
	}
}

func TestResultErr(t *testing.T) {
	TakeResult()
	ResultErr(5, nil)
	if v, ok := TakeResult(); !ok || v != 5 {
		t.Errorf("ResultErr(5, nil): %v %v", v, ok)
	}
	boom := errors.New("boom")
	defer func() {
		re, ok := recover().(ResultError)
		if !ok || !errors.Is(re, boom) {
			t.Errorf("ResultErr(0, boom) panicked with %v, want ResultError{boom}", re)
		}
	}()
	ResultErr(0, boom)
}

func TestCellFrames(t *testing.T) {
	stack := []byte("goroutine 7 [running]:\nneurogo.cells/c12.__ngRun.func1()\n\tcell:3 +0x25\nneurogo.cells/c12.ngE_Fib(...)\n\tcell:9\nmain.main()\n\t/x/main.go:5 +0x1\n")
	got := cellFrames(stack)
	want := "  in cell.func1, cell line 3\n  in Fib, cell line 9\n"
	if got != want {
		t.Errorf("cellFrames = %q, want %q", got, want)
	}
}
