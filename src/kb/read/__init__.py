"""Stage 3, files → claims: the parser (one unit → one claim), living documents and their
versions, the paper-card model. Reads files and kb.yaml; knows nothing of the store."""
