package machine_test

import (
	"fmt"

	"github.com/neurogo/neurogo/internal/machine"
)

func ExampleCommand() {
	fmt.Println(machine.Command("neurogo", "bench", "sim", "--python", "/opt/my venv/bin/python"))
	// Output: neurogo bench sim --python '/opt/my venv/bin/python'
}

func ExampleNewRun() {
	r := machine.NewRun("neurogo", "bench", "train", "--quick")
	r.Quick = true
	r.Machine.SetPeer("torch", "2.15.0")
	fmt.Println(r.Command, r.Quick, r.Machine.Peers["torch"], r.Machine.LogicalCores > 0)
	// Output: neurogo bench train --quick true 2.15.0 true
}
