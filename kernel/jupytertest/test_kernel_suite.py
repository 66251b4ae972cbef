"""The standard jupyter_kernel_test (0.7.0) conformance suite, configured
for every optional test it offers.

Attributes of jupyter_kernel_test.KernelTests and what they drive:
  kernel_name, language_name, file_extension   test_kernel_info
  code_hello_world                             test_execute_stdout
  code_stderr                                  test_execute_stderr
  completion_samples                           test_completion
  complete/incomplete/invalid_code_samples     test_is_complete
  code_page_something                          test_pager (see below)
  code_generate_error                          test_error
  code_execute_result                          test_execute_result, test_history
  code_display_data                            test_display_data
  code_history_pattern,
  supported_history_operations                 test_history (tail, range, search)
  code_inspect_sample                          test_inspect
  code_clear_output                            test_clear_output
and jupyter_kernel_test.IopubWelcomeTests.support_iopub_welcome drives
test_recv_iopub_welcome_msg (see below).

The samples are whole cells: the suite does not need one-statement samples
(it only compares the execute_input code with what it sent).
"""
from __future__ import annotations

import jupyter_kernel_test as jkt

from ktools import KERNEL_NAME

DISPLAY = 'import "github.com/neurogo/neurogo/display"\n'

# A PNG made in the cell with the standard library.
PNG_CELL = DISPLAY + '''import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

img := image.NewRGBA(image.Rect(0, 0, 16, 16))
for x := 0; x < 16; x++ {
	for y := 0; y < 16; y++ {
		img.Set(x, y, color.RGBA{uint8(16 * x), uint8(16 * y), 200, 255})
	}
}
var buf bytes.Buffer
if err := png.Encode(&buf, img); err != nil {
	panic(err)
}
_ = display.Display(display.PNG(buf.Bytes()))
'''

SVG_CELL = DISPLAY + (
    '_ = display.Display(display.SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
    '<circle cx="10" cy="10" r="8" fill="teal"/></svg>`))\n'
)

HTML_CELL = DISPLAY + '_ = display.Display(display.HTML("<b>bold</b> <i>neurogo</i>"))\n'

MARKDOWN_CELL = DISPLAY + '_ = display.Display(display.Markdown("# Title\\n\\n*emphasis*"))\n'


class NeurogoKernelTests(jkt.KernelTests):
    kernel_name = KERNEL_NAME
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'import "fmt"; fmt.Println("hello, world")'

    code_stderr = 'import (\n\t"fmt"\n\t"os"\n)\nfmt.Fprintln(os.Stderr, "this goes to stderr")'

    # The suite sends the text with the cursor at its end. The import makes
    # the sample independent of what earlier tests imported.
    completion_samples = [
        {"text": 'import "fmt"\nfmt.Pri', "matches": {"Print", "Printf", "Println"}},
        {"text": 'import "strings"\nstrings.ToU', "matches": {"ToUpper", "ToUpperSpecial"}},
        {"text": 'import "math"\nmath.Sqr', "matches": {"Sqrt", "Sqrt2", "SqrtE", "SqrtPi", "SqrtPhi"}},
        # a name of the cell being edited
        {"text": "neurogoCompletionVar := 1\nneurogoCompletionV"},
    ]

    complete_code_samples = [
        "1 + 1",
        "x := 1",
        'import "fmt"',
        'fmt.Println("hi")',
        "func f() int { return 1 }",
        "type T struct{ A int }",
        "for i := 0; i < 3; i++ {\n\tx += i\n}",
        "s := `raw\nstring`",
    ]
    incomplete_code_samples = [
        "func f() {",
        "for i := 0; i < 3; i++ {",
        "if x > 1 {\n\tx--",
        "xs := []int{\n\t1,\n\t2,",
        "type T struct {",
        "s := `unterminated raw string",
        "fmt.Println(1,",
        "import (",
    ]
    invalid_code_samples = [
        "}",
        "x := )",
        "func ) {",
        "var := 3",
        "x := := 1",
        ")",
    ]

    # The pager test needs a cell whose execute_reply carries a "page"
    # payload (IPython's `obj?`). neurogo has no pager: its payload list is
    # always empty and documentation is served by inspect_request instead,
    # so this test does not apply and is left empty (the suite skips it).
    code_page_something = ""

    # Exactly one output message (the error) is required.
    code_generate_error = 'panic("this cell panics on purpose")'

    code_execute_result = [
        {"code": "6*7", "result": "42"},
        {"code": '"gopher"', "result": '"gopher"'},
        {"code": "1.5 + 1", "result": "2.5"},
        {"code": "[]int{1, 2, 3}", "result": "[1 2 3]"},
        {"code": "map[string]int{\"a\": 1}", "result": "map[a:1]"},
        {"code": "true && !false", "result": "true"},
        {"code": DISPLAY + 'display.HTML("<b>html result</b>")', "mime": "text/html"},
        {"code": DISPLAY + 'display.Markdown("**markdown result**")', "mime": "text/markdown"},
        {"code": DISPLAY + 'display.SVG(`<svg xmlns="http://www.w3.org/2000/svg"/>`)', "mime": "image/svg+xml"},
        {
            "code": 'import (\n\t"image"\n\t"image/color"\n)\n'
            "im := image.NewGray(image.Rect(0, 0, 4, 4))\nim.Set(1, 1, color.White)\nim",
            "mime": "image/png",
        },
    ]

    code_display_data = [
        {"code": PNG_CELL, "mime": "image/png"},
        {"code": SVG_CELL, "mime": "image/svg+xml"},
        {"code": HTML_CELL, "mime": "text/html"},
        {"code": MARKDOWN_CELL, "mime": "text/markdown"},
    ]

    # Must match exactly one distinct code of code_execute_result (the
    # "unique" sub-test expects one result); history patterns are globs.
    code_history_pattern = "6*7"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = 'import "fmt"\nfmt.Println'

    code_clear_output = DISPLAY + 'import "fmt"\nfmt.Println("before clear")\n_ = display.Clear(false)\nfmt.Println("after clear")'


class NeurogoIopubWelcomeTests(jkt.IopubWelcomeTests):
    """iopub_welcome (JEP 65, an XPUB iopub socket) is not part of protocol
    5.4, which neurogo implements (jupyter_client 8.10 speaks 5.4 too); the
    kernel's iopub is a plain PUB socket. The suite skips the test."""

    kernel_name = KERNEL_NAME
    support_iopub_welcome = False
