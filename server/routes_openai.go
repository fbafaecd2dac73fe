package server

import "net/http"

func (s *Server) handleChatCompletions(w http.ResponseWriter, r *http.Request) {
	writeProblem(w, newProblem(http.StatusNotImplemented, "not-implemented", "not yet", ""))
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	writeProblem(w, newProblem(http.StatusNotImplemented, "not-implemented", "not yet", ""))
}
