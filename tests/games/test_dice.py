"""The dice derivation: deterministic, unbiased by construction, verifiable against a commitment."""

import hashlib
from collections import Counter

from games import dice

SEED = hashlib.sha256(b"a seed").hexdigest()


def test_roll_is_a_pure_function_of_seed_and_ply():
    assert dice.roll(SEED, 7) == dice.roll(SEED, 7)
    assert [dice.roll(SEED, ply) for ply in range(1, 30)] != [dice.roll(SEED, 1)] * 29


def test_dice_faces_are_roughly_uniform():
    faces = Counter(d for ply in range(1, 3001) for d in dice.roll(SEED, ply))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(900 < count < 1100 for count in faces.values())


def test_rejection_sampling_skips_bytes_252_and_above(monkeypatch):
    class FakeDigest:
        def digest(self) -> bytes:
            return bytes([255, 252, 5, 251, 0])

    monkeypatch.setattr(dice.hmac, "new", lambda *args: FakeDigest())
    assert dice.roll(SEED, 1) == [6, 6]  # 255 and 252 skipped; 5 % 6 + 1 = 6, 251 % 6 + 1 = 6


def test_commitment_is_sha256_of_the_seed_bytes():
    assert dice.commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


def test_verify_accepts_the_true_seed_and_rolls():
    rolls = [(ply, dice.roll(SEED, ply)) for ply in range(1, 5)]
    check = dice.verify(
        seed=SEED, commitment_hex=dice.commitment(SEED), rolls=rolls, opening_rolls=[]
    )
    assert check.ok and check.problems == ()


def test_verify_rejects_a_tampered_seed():
    other = hashlib.sha256(b"another seed").hexdigest()
    check = dice.verify(
        seed=other, commitment_hex=dice.commitment(SEED), rolls=[], opening_rolls=[]
    )
    assert not check.ok
    assert "commitment" in check.problems[0]


def test_verify_names_a_roll_that_does_not_follow_from_the_seed():
    rolls = [(1, dice.roll(SEED, 1)), (2, [7 - d for d in dice.roll(SEED, 2)])]
    check = dice.verify(
        seed=SEED, commitment_hex=dice.commitment(SEED), rolls=rolls, opening_rolls=[]
    )
    assert not check.ok and check.problems[0].startswith("ply 2")
