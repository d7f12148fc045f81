"""Types of the optional C extension ``pathconfig._speedups`` (_speedups.c)."""

from typing import Any, Dict, Tuple, Union

def bind(resolve: int, result_id: int, result_release: int, /) -> None: ...
def resolve(
    config: int, url: object, method: object, answers: Dict[int, Any], /
) -> Union[object, Tuple[int, int], int, None]: ...
