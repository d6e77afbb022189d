"""Checks of the harness itself: matchers and fact lists.

    python3 bench/quality/test_score.py
"""

import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import checkout  # noqa: E402
import scenarios  # noqa: E402
import score  # noqa: E402


class Matchers(unittest.TestCase):
    def test_path_is_a_whole_token_with_or_without_slash(self):
        m = re.compile(score.path_regex("crates/searcher"))
        self.assertTrue(m.search('"path":"crates/searcher/"'))
        self.assertTrue(m.search("- `crates/searcher`"))
        self.assertTrue(m.search("crates/searcher (12 files)"))
        self.assertFalse(m.search("crates/searcher/src/lib.rs"))
        self.assertFalse(m.search("other/crates/searcher"))
        self.assertFalse(m.search("crates/searcher-extra"))

    def test_file_path_inside_an_id(self):
        m = re.compile(score.path_regex("src/flask/helpers.py"))
        self.assertTrue(m.search("symbol:src/flask/helpers.py:url_for"))
        self.assertFalse(m.search("src/flask/helpers.pyc"))

    def test_word(self):
        m = re.compile(score.word_regex("url_for"))
        self.assertTrue(m.search("def url_for(endpoint)"))
        self.assertFalse(m.search("my_url_for_x"))

    def test_json_escapes_are_undone(self):
        fact = {"id": "x", "category": "api", "any": ['"quoted"']}
        fact["_matchers"] = score.compile_fact(fact)
        self.assertEqual(score.score_facts([fact], '{"s":"a \\"quoted\\" b"}')["found"], 1)

    def test_json_members_count_as_the_text_writes_them(self):
        fact = {"id": "x", "category": "api", "regex": r"[:#.]Execute\b"}
        fact["_matchers"] = score.compile_fact(fact)
        members = '{"name":"Command","members":["Name","Execute"]}'
        self.assertEqual(score.score_facts([fact], members)["found"], 1)
        self.assertEqual(score.score_facts([fact], '{"also":["Execute"]}')["found"], 0)

    def test_recall_counts_per_category(self):
        facts = [{"id": "a", "category": "api", "words": ["Foo"]},
                 {"id": "b", "category": "api", "words": ["Bar"]}]
        for fact in facts:
            fact["_matchers"] = score.compile_fact(fact)
        result = score.score_facts(facts, "class Foo")
        self.assertEqual(result["recall"], 0.5)
        self.assertEqual(result["categories"]["api"], {"found": 1, "total": 2})
        self.assertEqual(result["missed"], ["b"])


class Envelope(unittest.TestCase):
    def test_envelope_tokens_are_the_output_less_its_content(self):
        cue = ('{"schema_version":"repocue/cue-4","kind":"overview","content":{"project":'
               '{"name":"x é"},"symbols":[]},"omitted":3,"snapshot":"snapshot-000001",'
               '"freshness":"current"}\n')
        content = '{"project":{"name":"x é"},"symbols":[]}'
        whole = cue.rstrip("\n").encode()
        expected = -(-len(whole) // 4) - (-(-len(content.encode()) // 4))
        self.assertEqual(score.envelope_tokens(cue.encode()), expected)

    def test_envelope_tokens_of_text_output_are_unknown(self):
        self.assertIsNone(score.envelope_tokens(b"repocue overview main@0123 snapshot-000001 current\n"))


class FactLists(unittest.TestCase):
    def test_every_repository_has_a_valid_fact_list(self):
        for repo in checkout.load_repos():
            doc = score.load_facts(repo["name"])
            facts = doc["fact"]
            self.assertTrue(25 <= len(facts) <= 30, f"{repo['name']}: {len(facts)} facts")
            self.assertEqual({f["category"] for f in facts}, set(score.CATEGORIES), repo["name"])
            self.assertEqual(sum(1 for f in facts if "search" in f), 5, repo["name"])
            self.assertIn("modify", doc["worktree"])
            self.assertIn("untracked", doc["worktree"])

    def test_three_repositories_are_held_out(self):
        held = [r["name"] for r in checkout.load_repos() if r["held_out"]]
        self.assertEqual(sorted(held), ["encode/httpx", "serilog/serilog", "thephpleague/flysystem"])


class Scenario(unittest.TestCase):
    def test_apply_reports_paths_and_refuses_a_missing_anchor(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "src/flask"))
            for name, text in {"helpers.py": "def get_template_attribute(template_name: str, attribute: str) -> t.Any:\n",
                               "templating.py": "", "__main__.py": ""}.items():
                with open(os.path.join(root, "src/flask", name), "w") as handle:
                    handle.write(text)
            expected = scenarios.apply("pallets/flask", root)
            self.assertEqual([p["op"] for p in expected["paths"]], ["deleted", "modified", "added", "modified"])
            self.assertEqual(len(expected["symbols"]), 4)
            self.assertFalse(os.path.exists(os.path.join(root, "src/flask/__main__.py")))
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "src/flask"))
            with open(os.path.join(root, "src/flask/helpers.py"), "w") as handle:
                handle.write("nothing\n")
            with self.assertRaises(scenarios.ScenarioError):
                scenarios.apply("pallets/flask", root)


if __name__ == "__main__":
    unittest.main()
