package main

import (
	"fmt"
	"time"

	"github.com/fonte-rag/fonte"
)

// replicaLine is `fonte status`'s line for a replica store: how far
// behind its primary it serves.
func replicaLine(r *fonte.ReplicaStatus) string {
	line := "hot standby (read-only): "
	if r.LagBytes == 0 {
		line += "has replayed all it received from the primary"
	} else {
		line += fmt.Sprintf("%d bytes of the primary's WAL received and not replayed yet", r.LagBytes)
		if !r.Replayed.IsZero() {
			line += fmt.Sprintf("; serves the data of %s, %.1f s behind", r.Replayed.Format(time.RFC3339), r.LagSeconds)
		}
	}
	if r.Paused {
		line += "; replay is paused (pg_wal_replay_resume() resumes it)"
	}
	return line
}
