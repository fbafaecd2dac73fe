package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/fonte-rag/fonte/server"
)

// healthcheckTimeout bounds one check: a server that takes longer to say
// it is alive is not healthy.
const healthcheckTimeout = 5 * time.Second

// newHealthcheck is `fonte healthcheck`: it asks a running `fonte serve`
// for /healthz, so a container image without curl (the official one is
// built FROM scratch) can still have a HEALTHCHECK.
func newHealthcheck() *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "healthcheck",
		Short: "Check that a running fonte serve answers /healthz (exit 0 if it does)",
		Long: `Healthcheck sends GET /healthz to the fonte serve listening on --addr, as
serve reads it (flag, FONTE_ADDR or addr: in fonte.yaml), and exits 0 when
it answers {"status":"ok"} within 5 seconds, 1 otherwise. A wildcard address
(0.0.0.0 or [::]) is checked on the loopback. The container image's
HEALTHCHECK runs it; /healthz needs no token.`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			url, err := healthzURL(addr)
			if err != nil {
				return usageError{err}
			}
			if err := checkHealth(url); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "fonte: healthy:", url)
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:7700", "address fonte serve listens on (HOST:PORT)")
	return cmd
}

// healthzURL is the /healthz URL of a server listening on addr; a
// wildcard host is reached on the loopback of the same family.
func healthzURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--addr %q: want HOST:PORT: %w", addr, err)
	}
	switch ip := net.ParseIP(host); {
	case host == "":
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified() && ip.To4() != nil:
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified():
		host = "::1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}

// checkHealth GETs url and wants a 200 whose body says status ok.
func checkHealth(url string) error {
	client := &http.Client{Timeout: healthcheckTimeout}
	resp, err := client.Get(url)
	if err != nil {
		return fmt.Errorf("not healthy: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if err != nil {
		return fmt.Errorf("not healthy: reading %s: %w", url, err)
	}
	var h server.Health
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &h) != nil || h.Status != "ok" {
		return fmt.Errorf("not healthy: %s answered %s: %.200q", url, resp.Status, body)
	}
	return nil
}
