// Package deploytest checks the ways fonte is deployed, as an operator
// runs them: the container image built from the repository's
// Containerfile (with podman) and the systemd unit in docs/ (with
// systemd-analyze). It holds tests only.
package deploytest
