package interrupt_test

import (
	"errors"
	"fmt"

	"github.com/neurogo/neurogo/interrupt"
)

// A long loop checks the flag between steps and returns an error wrapping
// ErrInterrupted, with the steps actually done.
func Example() {
	defer interrupt.Reset()
	run := func(n, stopAt int) (int, error) {
		for k := range n {
			if interrupt.Requested() {
				return k, interrupt.Err("example: run", k, n, "steps")
			}
			if k == stopAt {
				interrupt.Request() // as the kernel does when the user presses stop
			}
		}
		return n, nil
	}
	done, err := run(1000, 41)
	fmt.Println(done, err, errors.Is(err, interrupt.ErrInterrupted))
	interrupt.Reset() // as the kernel does before the next cell
	done, err = run(1000, -1)
	fmt.Println(done, err)
	// Output:
	// 42 example: run interrupted after 42 of 1000 steps: interrupted true
	// 1000 <nil>
}
