// Package embed turns texts into dense vectors. It holds the clients for
// embedding servers (Ollama's POST /api/embed, any OpenAI-compatible POST
// /v1/embeddings) and fonte's local embedders, which need no download:
// hashed character n-grams (CharNGram, the built-in default), LSA fitted on
// a corpus, and seed 001's hash surrogate. Every embedder reports its model
// id and dimension, which an index records so that vectors of different
// models are never mixed.
package embed
