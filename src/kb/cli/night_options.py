"""Options shared by the night commands (``kb diff``, ``kb digest``, ``kb bump``): the topic and the window."""


from typing import Annotated, Optional

import typer

from kb.cli.complete import complete_topic
SinceOpt = Annotated[Optional[str], typer.Option("--since", help="Window start, ISO (inclusive).")]
UntilOpt = Annotated[Optional[str], typer.Option("--until", help="Window end, ISO (exclusive).")]
DateOpt = Annotated[Optional[str], typer.Option("--date", help="The night YYYY-MM-DD: the 24 h ending at kb.yaml's cutoff.")]
WindowOpt = Annotated[Optional[str], typer.Option("--window", help="A span ending now, e.g. 24h, 2d.")]
TopicArg = Annotated[Optional[str], typer.Argument(help="Topic (default: default_topic or the first of kb.yaml topics).",
                                                      autocompletion=complete_topic)]
