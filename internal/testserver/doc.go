// Package testserver starts the real servers fonte's store tests run
// against, on loopback ports of their own: PostgreSQL (the native
// PostgreSQL 18 of ../shared/postgres by default, primary and hot
// standby, which a test can crash and restart; and PGlite with the
// pgvector and pg_textsearch extensions, through pglite-server, the
// conformance suite's second PostgreSQL) and Redis with the Query Engine
// (single node and a three-master cluster, from ../shared/redis). A server
// that cannot start fails the test that needs it, with what to install;
// tests never skip for a missing server.
package testserver
