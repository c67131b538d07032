"""Operations run in one unit of work: memory, learning, interchange. Import storage, extraction, prompt, domain."""
