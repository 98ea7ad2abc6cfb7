"""Accounts, their sessions and the guest identities merged into them; match results and ratings.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer, "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "accounts",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("password", sa.String(256), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
        sa.UniqueConstraint("player", name="uq_accounts_player"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", _ID, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "aliases",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("account_id", _ID, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_aliases_account", "aliases", ["account_id"])
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("scores", sa.Text, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("finished", sa.Float, nullable=False),
    )
    op.create_index("ix_results_finished", "results", ["finished"])
    op.create_table(
        "result_seats",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("results.table_id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("team", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("abandoned", sa.Boolean, nullable=False),
    )
    op.create_index("ix_result_seats_player", "result_seats", ["player"])
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_game_ordinal", "ratings", ["game", "ordinal"])
    op.create_table(
        "rating_changes",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("results.table_id"), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "player", name="uq_rating_changes_table_player"),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_table("result_seats")
    op.drop_table("results")
    op.drop_table("aliases")
    op.drop_table("sessions")
    op.drop_table("accounts")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
