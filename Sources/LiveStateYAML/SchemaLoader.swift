internal import CYAML
import LiveState
