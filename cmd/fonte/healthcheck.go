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
	host, _ = loopbackFor(host)
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}

// loopbackFor is the host a client on this machine reaches a server
// listening on host at: the loopback of the same family for a wildcard
// host ("", 0.0.0.0, ::), which it reports, else host itself.
func loopbackFor(host string) (string, bool) {
	switch ip := net.ParseIP(host); {
	case host == "":
		return "127.0.0.1", true
	case ip != nil && ip.IsUnspecified() && ip.To4() != nil:
		return "127.0.0.1", true
	case ip != nil && ip.IsUnspecified():
		return "::1", true
	}
	return host, false
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

// printListening prints the URL a user opens to reach a server asked to
// listen on requested and listening on actual: for a wildcard address
// (which the system reports as [::] even for 0.0.0.0), the loopback URL
// and a line saying that every interface listens.
func printListening(out io.Writer, requested string, actual net.Addr) {
	reqHost, _, _ := net.SplitHostPort(requested)
	_, port, err := net.SplitHostPort(actual.String())
	host, wildcard := loopbackFor(reqHost)
	if err != nil || !wildcard {
		fmt.Fprintf(out, "fonte: listening on http://%s\n", actual)
		return
	}
	fmt.Fprintf(out, "fonte: listening on http://%s\n", net.JoinHostPort(host, port))
	fmt.Fprintf(out, "fonte: reachable on every interface at port %s: from another machine, use this machine's IP address (a name needs --host)\n", port)
}
