"""Embedders for the semantic ladder: `lsa` (offline, fitted on the home's corpus; the
default) and `http` (an OpenAI-compatible `/v1/embeddings` or Ollama `/api/embed` server).

Modules here import numpy at top level but never scikit-learn: fitting imports it inside
`LsaEmbedder.fit`, and a query is projected with numpy alone from the persisted arrays.
"""
