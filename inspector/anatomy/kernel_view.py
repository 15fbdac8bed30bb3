"""The anatomy of a provider body as the request view shows it: with what its kernel copy tells.

Every wire but Anthropic's explicit blocks strips Covel's cache sentinel from the system prompt,
so the provider body alone cannot say where Covel's stable parts end, nor where the runtime body
lies. The kernel copy of the same request (``payload.messages``) still carries the sentinels, and
the stripped text is exactly its pieces laid end to end. :func:`label_as_shown` labels a request
with both rules; the request view, Compare and the cache analysis's names all go through it, so a
part has one name wherever it is shown.
"""

from __future__ import annotations

from dataclasses import replace

from inspector.anatomy.labelling import Anatomy, label_request
from inspector.covel import markers
from inspector.wire.model import SRC_KERNEL_SENTINEL, CacheBreakpoint, NormalisedRequest


def split_at_kernel_sentinels(request: NormalisedRequest, kernel: NormalisedRequest) -> None:
    """Cut the provider body's system prompt where the kernel copy has cache sentinels.

    When the provider's first system text is the kernel pieces laid end to end, it is split at
    the same places (in place), so the anatomy recognises its parts by sentinel, as in the kernel
    view.
    """
    pieces = [b for b in kernel.system if b.source == SRC_KERNEL_SENTINEL]
    if len(pieces) < 2 or not request.system:
        return
    first = request.system[0]
    if first.source == SRC_KERNEL_SENTINEL or first.text != "".join(p.text for p in pieces):
        return
    offset = first.origin_offset
    split = []
    for piece in pieces:
        split.append(replace(first, text=piece.text, breakpoint_after=piece.breakpoint_after,
                             cache_control=False, source=SRC_KERNEL_SENTINEL, origin_offset=offset))
        offset += len(piece.text)
    shift = len(split) - 1
    request.system[0:1] = split
    request.cache_breakpoints = [
        replace(bp, index=bp.index + shift) if bp.where == "system" and bp.index > 0 else bp
        for bp in request.cache_breakpoints
        if not (bp.where == "system" and bp.index == 0)
    ] + [CacheBreakpoint("system", i, origin="sentinel") for i, b in enumerate(split) if b.breakpoint_after]


def runtime_body_from_kernel(kernel: NormalisedRequest) -> str | None:
    """The runtime body as the kernel copy's sentinels delimit it (None when they do not)."""
    pieces = [b for b in kernel.system if b.source == SRC_KERNEL_SENTINEL and b.breakpoint_after]
    if len(pieces) >= 2 and pieces[0].text.lstrip().startswith(markers.PREAMBLE_TAGS):
        body = pieces[1].text.strip()
        return body or None
    return None


def label_as_shown(request: NormalisedRequest, kernel: NormalisedRequest | None) -> Anatomy:
    """The anatomy of ``request`` with its kernel copy's rules applied (``request``'s system is
    split in place); ``kernel`` None or ``request`` itself: labelled as it is."""
    if kernel is None:
        return label_request(request)
    if request is not kernel:
        split_at_kernel_sentinels(request, kernel)
    return label_request(request, runtime_body=runtime_body_from_kernel(kernel))
