"""Games judged by the engine (club.referee): the result a table states, the check, the totals.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06
"""
import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stated', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('check', sa.String(length=16), nullable=False,
                                      server_default='ok'))
        batch_op.add_column(sa.Column('problem', sa.String(length=500), nullable=True))
        batch_op.add_column(sa.Column('finished', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('winner', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('totals', sa.JSON(), nullable=False,
                                      server_default='[]'))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('totals')
        batch_op.drop_column('winner')
        batch_op.drop_column('finished')
        batch_op.drop_column('problem')
        batch_op.drop_column('check')
        batch_op.drop_column('stated')

