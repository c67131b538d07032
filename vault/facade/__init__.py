"""The pieces of the `Vault` facade (vault.api): one small class per resource.

`Store` owns the engine and the transactions; `Episodes`, `KnowledgeBase`, `Transfer` and
`Admin` are what `v.episodes`, `v.knowledge`, `v.transfer` and `v.admin` return.
"""
