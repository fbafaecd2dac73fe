package postgres

import (
	"time"

	"github.com/fonte-rag/fonte"
)

// replicaColumns are the columns Status reads besides the collection's
// own, in the same statement (Status runs before every search, so it
// takes no second round trip): whether the server is a hot standby and,
// if so, how far its replay is behind what it received. The CASEs keep
// the recovery functions from running on a primary, where
// pg_is_wal_replay_paused fails.
const replicaColumns = `pg_is_in_recovery(),
	CASE WHEN pg_is_in_recovery() THEN coalesce(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()), 0)::bigint END,
	CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() END,
	CASE WHEN pg_is_in_recovery() THEN pg_last_xact_replay_timestamp() END,
	clock_timestamp()`

// replicaRow holds what replicaColumns return.
type replicaRow struct {
	standby  bool
	lagBytes *int64
	paused   *bool
	replayed *time.Time
	now      time.Time
}

// dest returns the scan destinations of replicaColumns.
func (r *replicaRow) dest() []any {
	return []any{&r.standby, &r.lagBytes, &r.paused, &r.replayed, &r.now}
}

// status is the replica's lag, nil on a primary. The lag in time is the
// age of the last replayed commit while WAL waits to be replayed: a
// replica that replayed everything it received is 0 behind (its
// receiver may still be late, which only the primary can tell), and one
// whose primary was idle for long before the commit it waits to replay
// reads as that much behind, an upper bound.
func (r *replicaRow) status() *fonte.ReplicaStatus {
	if !r.standby {
		return nil
	}
	st := &fonte.ReplicaStatus{}
	if r.lagBytes != nil {
		st.LagBytes = *r.lagBytes
	}
	if r.paused != nil {
		st.Paused = *r.paused
	}
	if r.replayed != nil {
		st.Replayed = r.replayed.UTC()
		if st.LagBytes > 0 {
			st.LagSeconds = max(0, r.now.Sub(*r.replayed).Seconds())
		}
	}
	return st
}
