"""An evening's Swiss tournament: tournaments, entrants and pairings (a round's games).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""
import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('tournaments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=40), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('tables', sa.JSON(), nullable=False),
    sa.Column('created', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_tournaments_evening_id'), 'tournaments', ['evening_id'], unique=False)
    op.create_table('entrants',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'number')
    )
    op.create_index(op.f('ix_entrants_tournament_id'), 'entrants', ['tournament_id'], unique=False)
    op.create_table('pairings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('club', sa.String(length=64), nullable=True),
    sa.Column('table', sa.String(length=64), nullable=True),
    sa.Column('first', sa.Integer(), nullable=False),
    sa.Column('second', sa.Integer(), nullable=True),
    sa.Column('names', sa.JSON(), nullable=False),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.Column('created', sa.Float(), nullable=False),
    sa.Column('sent', sa.Float(), nullable=True),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('cleared', sa.Boolean(), nullable=False),
    sa.Column('settled', sa.JSON(), nullable=True),
    sa.Column('settled_why', sa.String(length=500), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'round', 'first')
    )
    op.create_index(op.f('ix_pairings_tournament_id'), 'pairings', ['tournament_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_pairings_tournament_id'), table_name='pairings')
    op.drop_table('pairings')
    op.drop_index(op.f('ix_entrants_tournament_id'), table_name='entrants')
    op.drop_table('entrants')
    op.drop_index(op.f('ix_tournaments_evening_id'), table_name='tournaments')
    op.drop_table('tournaments')
