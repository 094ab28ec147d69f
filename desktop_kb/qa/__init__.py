"""Library QA: retrieval for questions, packing, the content gate, providers, citations (Qt-free)."""
