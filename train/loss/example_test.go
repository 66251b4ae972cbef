package loss_test

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/train/loss"
)

func ExampleLoss() {
	// batch 1, steps 2, dims 2: element (b, s, d) at (b·2 + s)·2 + d.
	losses := []loss.Loss{loss.MSE{}, loss.MaskedMSE{}, loss.CrossEntropy{FromLogits: true}}
	pred := []float64{0, 0, 1, 3}
	target := []float64{1, 0, 0, 1}
	grad := make([]float64, 4)
	for _, l := range losses {
		v, err := l.Eval(pred, target, 1, 2, 2, grad)
		fmt.Printf("%s %.4f %v\n", l.Name(), v, err)
	}
	// Output:
	// mse 1.5000 <nil>
	// nan_mse 1.5000 <nil>
	// categorical_crossentropy 0.4100 <nil>
}

func ExampleMSE() {
	grad := make([]float64, 3)
	v, err := loss.MSE{}.Eval([]float64{1, 2, 3}, []float64{1, 0, 0}, 1, 1, 3, grad)
	fmt.Printf("%.4f %.4f %v\n", v, grad, err)
	// Output: 4.3333 [0.0000 1.3333 2.0000] <nil>
}

func ExampleMaskedMSE() {
	// Targets known only at the last of three steps (NaN elsewhere).
	nan := math.NaN()
	pred := []float64{5, 5, 2}
	target := []float64{nan, nan, 1}
	grad := make([]float64, 3)
	v, _ := loss.MaskedMSE{}.Eval(pred, target, 1, 3, 1, grad)
	fmt.Println(v, grad)
	v, _ = loss.MaskedMSE{CountAll: true}.Eval(pred, target, 1, 3, 1, grad) // NengoDL's denominator
	fmt.Printf("%.4f %.4f\n", v, grad)
	// Output:
	// 1 [0 0 2]
	// 0.3333 [0.0000 0.0000 0.6667]
}

func ExampleCrossEntropy() {
	// Two rows of three logits, class indices 0 and 2: (ln(e²+2) − 2 + ln 2)/2.
	logits := []float64{2, 0, 0, 1000, -1000, 1000}
	labels := []float64{0, 2}
	grad := make([]float64, 6)
	ce := loss.CrossEntropy{FromLogits: true, Sparse: true}
	v, err := ce.Eval(logits, labels, 2, 1, 3, grad)
	fmt.Printf("%s %.4f %.3f %v\n", ce.Name(), v, grad, err)

	// Probabilities (normalised and clipped as Keras), one-hot targets.
	v, err = loss.CrossEntropy{}.Eval([]float64{0.5, 0.25, 0.25}, []float64{1, 0, 0}, 1, 1, 3, grad[:3])
	fmt.Printf("%.4f %v\n", v, err)
	// Output:
	// sparse_categorical_crossentropy 0.4663 [-0.107 0.053 0.053 0.250 0.000 -0.250] <nil>
	// 0.6931 <nil>
}

func ExampleRegularizer() {
	reg := loss.Regularizer{L1: 0.01, L2: 0.1}
	w := []float64{-2, 0, 1}
	grad := []float64{0, 0, 0}
	err := reg.AddGrad(w, grad)
	fmt.Printf("%.2f %.2f %v\n", reg.Penalty(w), grad, err)
	fmt.Println(loss.Regularizer{L2: -1}.Validate())
	// Output:
	// 0.53 [-0.41 0.00 0.21] <nil>
	// loss: Regularizer: L2 = -1, must be finite and ≥ 0
}

func ExampleMetric() {
	// Accuracy over two batches equals accuracy over their union.
	var m loss.Metric = loss.Accuracy{Sparse: true}
	pred := []float64{0.9, 0.1, 0.2, 0.8, 0.6, 0.4}
	labels := []float64{0, 0, 0}
	s1, n1, _ := m.Accumulate(pred[:4], labels[:2], 2, 1, 2)
	s2, n2, _ := m.Accumulate(pred[4:], labels[2:], 1, 1, 2)
	fmt.Printf("%s %.4f\n", m.Name(), (s1+s2)/(n1+n2))
	// Output: sparse_categorical_accuracy 0.6667
}

func ExampleAccuracy() {
	pred := []float64{0.1, 0.7, 0.2, 0.5, 0.3, 0.2}
	oneHot := []float64{0, 1, 0, 0, 0, 1}
	sum, count, err := loss.Accuracy{}.Accumulate(pred, oneHot, 2, 1, 3)
	fmt.Println(sum, count, err)
	_, _, err = loss.Accuracy{Sparse: true}.Accumulate(pred, []float64{1, 3}, 2, 1, 3)
	fmt.Println(err)
	// Output:
	// 1 2 <nil>
	// loss: Accuracy (Sparse): target[batch 1, step 0] = 3, must be an integer class index in [0, 3)
}

func ExampleMSEMetric() {
	sum, count, err := loss.MSEMetric{}.Accumulate([]float64{1, 2, 4}, []float64{0, math.NaN(), 2}, 1, 3, 1)
	fmt.Println(sum, count, sum/count, err)
	_, _, err = loss.MSEMetric{}.Accumulate([]float64{math.NaN()}, []float64{0}, 1, 1, 1)
	fmt.Println(err)
	// Output:
	// 5 2 2.5 <nil>
	// loss: MSEMetric: pred[batch 0, step 0, dim 0] is NaN: the model output is not finite (NaN loss)
}
