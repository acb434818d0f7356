"""The shared vocabulary: the one definition of each word events, commands, scenarios and the engine use.

It sits at the bottom (it imports nothing of ours but :mod:`channel`), so every layer can import it
and it imports none back:

- :mod:`~channel.vocab.words`: the ``Literal`` words (roles, variants, vias, intents, ...), re-exported here;
- :mod:`~channel.vocab.risk`: the risk tiers and their one order;
- :mod:`~channel.vocab.atoms`: the atom names code refers to (the registry is ``sandbox/atoms.toml``);
- :mod:`~channel.vocab.topics`: the topic tree's names;
- :mod:`~channel.vocab.edit`: ``Edit`` and the one "replace exactly one occurrence" rule;
- :mod:`~channel.vocab.norms`: ``Norms``, the interventions as one typed settings object;
- :mod:`~channel.vocab.config`: ``SessionConfig``, what a session is asked to do;
- :mod:`~channel.vocab.tools`: one pydantic model per agent tool, its JSON schema generated from it;
- :mod:`~channel.vocab.predicates`: the trap and success predicates of scenarios;
- :mod:`~channel.vocab.globs`: the workspace path globs (``owns``, ``scope``, ...) and their one compiler, and
  ``CodeOwners``, the one reading of a repository's ``CODEOWNERS`` (GitHub's rules; the git server's hook imports it).
"""

from channel.vocab.risk import Risk as Risk
from channel.vocab.words import AgentRole as AgentRole
from channel.vocab.words import AgentVia as AgentVia
from channel.vocab.words import AuditSource as AuditSource
from channel.vocab.words import ChangeKind as ChangeKind
from channel.vocab.words import Condition as Condition
from channel.vocab.words import Decision as Decision
from channel.vocab.words import ExecutionType as ExecutionType
from channel.vocab.words import FavorEvidence as FavorEvidence
from channel.vocab.words import FavorRule as FavorRule
from channel.vocab.words import FavorType as FavorType
from channel.vocab.words import FeedbackMode as FeedbackMode
from channel.vocab.words import HarmStage as HarmStage
from channel.vocab.words import Inaction as Inaction
from channel.vocab.words import Intent as Intent
from channel.vocab.words import IsolationLevel as IsolationLevel
from channel.vocab.words import Opportunity as Opportunity
from channel.vocab.words import OutsideArea as OutsideArea
from channel.vocab.words import Presence as Presence
from channel.vocab.words import Role as Role
from channel.vocab.words import SanctionedVia as SanctionedVia
from channel.vocab.words import SandboxBackend as SandboxBackend
from channel.vocab.words import SuiteName as SuiteName
from channel.vocab.words import Variant as Variant
from channel.vocab.words import Via as Via
