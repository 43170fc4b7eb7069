"""Seat pods: buttons, OLED rendering and their backends (gpio, serial, mock)."""
