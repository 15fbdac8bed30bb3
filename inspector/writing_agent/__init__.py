"""The writing-agent engine (``moranzhi/writing-agent``): context-order.v1 tables, the tagged
blackboard, worker context assembly with hysteresis on the dialogue history, and the prefix
simulation that shows where the prompt cache breaks. Spec: ../shared/spec/writing-agent.md.

Modules: ``order`` (documents and edits), ``blackboard``, ``scenario`` (blackboard plus workers),
``fragment`` (content projection), ``history``, ``segments``, ``isolation``, ``framing`` (bags
to messages), ``assembly``, ``prefix_sim``, ``commands`` (CLI).
"""
