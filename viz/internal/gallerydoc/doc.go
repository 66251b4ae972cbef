// Command gallerydoc writes the "Plot gallery" page of the documentation
// site from the gallery of package viz: the cases of viz/gallery_test.go
// (each a Name, Title, Caption and Make function) and their golden images
// in viz/testdata/gallery. docs/tools/stage.py runs it while staging the
// site:
//
//	go run ./viz/internal/gallerydoc -out .cache/docs-build/docs
//
// It writes OUT/gallery.md, one section per case in the order of the
// file's []galleryCase lists (title, caption, figure, the code of Make),
// and copies the images to OUT/assets/gallery/. The code is read with
// go/parser from the test file itself, so the page shows exactly the code
// TestGallery renders and compares; a case without a golden image is an
// error (go test ./viz -run TestGallery -update creates them).
package main
