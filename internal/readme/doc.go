// Package readme holds no code: its test runs the shell commands
// README.md shows, as written, in a fresh copy of the repository, and
// keeps the list of those it cannot run with the reason.
package readme
