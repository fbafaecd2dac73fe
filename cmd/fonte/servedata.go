package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fonte-rag/fonte/engine"
)

// oldDataDir is where serve kept its collections before they moved under
// the store folder: a folder of that name in the working directory.
const oldDataDir = ".fonte-collections"

// serveDataDir is the folder of the collections that name no store of
// their own: --data when given, else the folder "collections" inside the
// default collection's store folder, so serve never leaves a folder in
// the working directory. A database store has no folder: without --data
// no such collection can be made, and the server says so. A
// .fonte-collections folder an older serve left in the working directory
// is moved there once, and the move is reported on out.
func serveDataDir(flag, store string, out io.Writer) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if !engine.IsFolder(store) {
		return "", nil
	}
	dir := filepath.Join(store, "collections")
	if _, err := os.Stat(oldDataDir); err != nil {
		return dir, nil // nothing to move (or nothing readable: not ours to touch)
	}
	switch _, err := os.Stat(dir); {
	case err == nil:
		fmt.Fprintf(out, "fonte: %s in the working directory is not read: the collections are in %s (move its folders there, or give --data %s)\n",
			oldDataDir, dir, oldDataDir)
		return dir, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	if err := os.Rename(oldDataDir, dir); err != nil {
		return "", fmt.Errorf("moving the collections from %s to %s: %w (move the folder yourself, or give --data %s)", oldDataDir, dir, err, oldDataDir)
	}
	fmt.Fprintf(out, "fonte: moved the collections from %s to %s\n", oldDataDir, dir)
	return dir, nil
}
