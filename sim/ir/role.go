package ir

// Role names the built parameter a signal holds, so executors that train
// or map parameters (the trainer, accelerator backends) find them by a
// typed value rather than by the signal's name. Its string is the
// parameter's name in Nengo (and in .npz files).
type Role string

// The roles of built parameters. Signals of no parameter have RoleNone.
const (
	RoleNone           Role = ""
	RoleBias           Role = "bias"            // an ensemble's biases
	RoleScaledEncoders Role = "scaled_encoders" // an ensemble's encoders·gain/radius (N×D)
	RoleWeights        Role = "weights"         // a connection's weights or decoders·transform
	RoleDecoders       Role = "decoders"        // a low-rank connection's decoders (dmid×N)
	RoleTransform      Role = "transform"       // a low-rank connection's transform (rows×dmid)
	RoleGains          Role = "gains"           // the gains of a connection into neurons
	RoleLayer          Role = "layer"           // a layer node's parameter
)
