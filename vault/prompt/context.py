"""Fit memory into what the rest of the prompt leaves of the model's window (the athlete-memory plan §7).

The prompt is assembled as three parts, each ending with exactly one newline and separated by
one blank line; the MEMORY block closes the CONTEXT part, after the caller's context lines
(the engine guide: "MEMORY block appears in CONTEXT between existing fields and end of context"):

    {system_prompt}\\n
    \\n
    {context_lines}\\n
    MEMORY:\\n- Facts: ...\\n
    \\n
    {history}\\n

An empty part is left out with its blank line. Tokens are counted on that assembled string, not
summed per part: BPE can merge across a boundary, so only the whole string's count is exact.

Memory is shrunk first: its budget is min(memory_budget, window - reserved_output - tokens of
the prompt with no memory), and is lowered further if the assembled prompt still overflows.
When even the prompt with no memory is too long, `PromptTooLong` (a `BudgetExceeded`) is raised
with the figures: the caller must cut history or context, which this module never touches.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from vault.domain.errors import BudgetExceeded, InvalidInput
from vault.domain.models import AthleteMemory
from vault.prompt.memory_block import DEFAULT_BUDGET, MemoryBlock, render_within
from vault.prompt.tokens import DEFAULT_ENCODING, count_tokens

WINDOW = 1024  # the athlete-memory plan §7: the on-device model's context
RESERVED_OUTPUT = 150  # the athlete-memory plan §7: kept free for the model's answer


class PromptTooLong(BudgetExceeded):
    """The prompt does not fit the window even with no memory at all."""

    def __init__(self, *, window: int, reserved_output: int, prompt_tokens: int) -> None:
        self.window = window
        self.reserved_output = reserved_output
        self.prompt_tokens = prompt_tokens
        self.input_limit = window - reserved_output
        super().__init__(
            f"the prompt without memory is {prompt_tokens} tokens, but a {window}-token window "
            f"with {reserved_output} reserved for output leaves {self.input_limit} for input; "
            f"shorten the system prompt, context or history by {prompt_tokens - self.input_limit}"
        )


class ContextFit(BaseModel):
    """The assembled prompt and the numbers behind it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    prompt: str
    prompt_tokens: int  # the whole assembled prompt, memory included
    base_tokens: int  # the same prompt with no memory
    window: int
    reserved_output: int
    memory_budget: int  # what the memory block was finally allowed
    memory: MemoryBlock

    @property
    def input_limit(self) -> int:
        """Tokens the prompt may use: the window less the reserved output."""
        return self.window - self.reserved_output


def assemble(system_prompt: str, context_lines: str, memory_text: str, history: str) -> str:
    """The prompt string as documented above; `memory_text` is appended to the context part."""
    context = _part(context_lines) + memory_text
    return "\n".join(part for part in (_part(system_prompt), context, _part(history)) if part)


def fit_context(
    system_prompt: str,
    context_lines: str,
    history: str,
    memory: AthleteMemory,
    *,
    window: int = WINDOW,
    reserved_output: int = RESERVED_OUTPUT,
    memory_budget: int = DEFAULT_BUDGET,
    encoding: str = DEFAULT_ENCODING,
) -> ContextFit:
    """Assemble the prompt with as much memory as fits, shrinking memory before anything else.

    Raises:
        InvalidInput: a size is not a positive integer, or the reserve is not below the window.
        PromptTooLong: the prompt with no memory already exceeds `window - reserved_output`.
    """
    for name, value in (("window", window), ("memory_budget", memory_budget)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise InvalidInput(f"{name} must be a positive integer, got {value!r}")
    if isinstance(reserved_output, bool) or not isinstance(reserved_output, int):
        raise InvalidInput(f"reserved_output must be an integer, got {reserved_output!r}")
    if not 0 <= reserved_output < window:
        raise InvalidInput(
            f"reserved_output must be from 0 to window - 1 ({window - 1}), got {reserved_output}"
        )
    limit = window - reserved_output
    base = assemble(system_prompt, context_lines, "", history)
    base_tokens = count_tokens(base, encoding)
    if base_tokens > limit:
        raise PromptTooLong(
            window=window, reserved_output=reserved_output, prompt_tokens=base_tokens
        )
    budget = min(memory_budget, limit - base_tokens)
    while True:
        block = render_within(memory, budget, encoding)
        prompt = assemble(system_prompt, context_lines, block.text, history)
        total = count_tokens(prompt, encoding)
        if total <= limit:
            break
        # Joining merged tokens differently than counted apart; give memory less and retry.
        # Each pass lowers the budget, and a budget of 0 yields `base`, which fits.
        budget = max(0, budget - (total - limit))
    return ContextFit(
        prompt=prompt,
        prompt_tokens=total,
        base_tokens=base_tokens,
        window=window,
        reserved_output=reserved_output,
        memory_budget=budget,
        memory=block,
    )


def _part(text: str) -> str:
    """`text` ending in exactly one newline, or "" when it is blank."""
    return text.rstrip("\n") + "\n" if text.strip() else ""
