"""The organiser's records: the players' register, who sat where, evenings, the result ledger
and the admin PIN's hash.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""
import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('evenings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=120), nullable=False),
    sa.Column('opened', sa.Float(), nullable=False),
    sa.Column('closed', sa.Float(), nullable=True),
    sa.Column('hide_standings', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('nickname', sa.String(length=80), nullable=True),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.Column('created', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('settings',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('value', sa.String(length=500), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    op.create_table('results',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('side', sa.Integer(), nullable=True),
    sa.Column('totals', sa.JSON(), nullable=True),
    sa.Column('winner', sa.Integer(), nullable=True),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('guest', sa.String(length=80), nullable=True),
    sa.Column('by', sa.String(length=80), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.Column('why', sa.String(length=500), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_results_game_id'), 'results', ['game_id'], unique=False)
    op.create_table('seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('guest', sa.String(length=80), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'seat')
    )
    op.create_index(op.f('ix_seats_game_id'), 'seats', ['game_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_seats_game_id'), table_name='seats')
    op.drop_table('seats')
    op.drop_index(op.f('ix_results_game_id'), table_name='results')
    op.drop_table('results')
    op.drop_table('settings')
    op.drop_table('players')
    op.drop_table('evenings')
