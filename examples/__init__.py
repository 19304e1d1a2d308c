"""The examples the README's commands read, as package data: installed, this folder is the import
package ``mahjong_examples`` (``pyproject.toml`` maps it); ``mahjong-score examples DIR`` copies
them out so that ``mahjong-score photo examples/hand.jpg`` works anywhere."""
