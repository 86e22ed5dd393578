"""Signals the score sheets send: ``partie_decided(sheet, winner, tally)`` once a deal
decides a two-player Partie (winner: seat 0/1; tally: Bummerl received per seat). It is
sent inside the recording transaction, so a receiver's writes land with the deal."""

from django.dispatch import Signal

partie_decided = Signal()
