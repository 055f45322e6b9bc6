"""A classification tree pruned by the one-standard-error rule, after R's ``rpart``.

The tree is grown by scikit-learn (Gini splits, ``minsplit = 20``, ``minbucket = 7``, the
``rpart`` defaults) and then pruned as ``rpart`` does, by cost-complexity on the
misclassification risk:

1. weakest-link pruning of the grown tree gives the nested subtrees and the complexity
   values ``cp`` (relative to the root's risk) at which each is optimal; only subtrees
   with ``cp >= cp_min = 0.01`` (``rpart``'s default ``cp``) are candidates;
2. internal 10-fold cross-validation scores every candidate at the geometric mean of its
   ``cp`` interval (the largest at ten times its ``cp``), each fold's tree pruned at the
   same complexity per instance (``rpart``'s ``xval``: ``alpha`` scaled by ``n_v / n``),
   giving the cross-validated error ``xerror`` and its standard error
   ``xstd = sqrt(xerror (1 - xerror) / n)``;
3. the chosen subtree is the smallest one with ``xerror <= min(xerror) + xstd`` at the
   minimum (the one-standard-error rule).

The trees are grown by :class:`~.presorted_tree.PresortedTree` (``grower="presorted"``,
the default: features sorted once per fit, compiled, the same splits as scikit-learn's
except between splits of exactly equal Gini gain, see that module; nodes that cannot be
internal in any candidate subtree, with a risk below ``cp_min`` times the root's, are
not split, which leaves the candidates and the chosen tree unchanged) or by scikit-learn
itself (``grower="sklearn"``, the reference, three to ten times slower); both draw the
same random numbers, so they choose the same internal folds.

Differences from ``rpart``: the grown tree is not stopped early at ``cp_min`` (candidates
below it are discarded instead, which gives the same candidate set except when a split
with a small gain enables a large later gain), surrogate splits are not used (the data
have no missing values) and scikit-learn breaks ties between equally good splits at
random.

References
----------
Breiman, Friedman, Olshen & Stone (1984), *Classification and Regression Trees*, Ch. 3
(weakest-link pruning, the 1-SE rule). Therneau & Atkinson, *An Introduction to Recursive
Partitioning Using the RPART Routines* (``cp``, ``xval``, ``xerror``, ``xstd``).
Corani et al. (2017), Sec. 4.7 (the CART learner of the Friedman experiments).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_array, check_int
from ..seeding import RngLike, as_generator

__all__ = ["OneSETreeClassifier", "weakest_link_cp"]

_INT32_MAX = 2**31 - 1


def weakest_link_cp(tree) -> np.ndarray:
    """Relative complexity at which every node of a fitted tree becomes a leaf.

    Parameters
    ----------
    tree : sklearn.tree._tree.Tree
        The ``tree_`` attribute of a fitted :class:`~sklearn.tree.DecisionTreeClassifier`.

    Returns
    -------
    numpy.ndarray
        ``(n_nodes,)``: node ``t`` is a leaf or pruned away in the optimal subtree for every
        ``cp >= result[t]`` (``cp = alpha / R(root)``, ``R`` the misclassification count);
        0 for the leaves of the grown tree. Along any root-to-leaf path the values are
        non-increasing.
    """
    from .presorted_tree import weakest_link

    counts = tree.value[:, 0, :] * tree.weighted_n_node_samples[:, None]
    risk = tree.weighted_n_node_samples - counts.max(axis=1)
    return weakest_link(
        np.asarray(tree.children_left, dtype=np.int64),
        np.asarray(tree.children_right, dtype=np.int64),
        risk,
        max(risk[0], 1e-12),
    )


def _risk_rate(codes: np.ndarray) -> float:
    """Misclassification risk per instance of a tree's root on labels coded 0, 1, ...,
    R(root) / n."""
    return 1.0 - np.bincount(codes).max() / codes.size


def _pruned_leaf_map(tree, collapse: np.ndarray, cps: np.ndarray) -> np.ndarray:
    """For every ``cp`` and node, the node of the pruned tree that contains it.

    Returns ``(len(cps), n_nodes)`` node ids: the shallowest ancestor (inclusive) whose
    collapse value is ``<= cp``, or the node itself.
    """
    from .presorted_tree import pruned_leaf_map

    return pruned_leaf_map(
        np.asarray(tree.children_left, dtype=np.int64),
        np.asarray(tree.children_right, dtype=np.int64),
        collapse,
        np.asarray(cps, dtype=float),
    )


def _node_classes(tree, classes: np.ndarray) -> np.ndarray:
    return classes[np.argmax(tree.value[:, 0, :], axis=1)]


class OneSETreeClassifier:
    """CART with ``rpart``'s defaults and the one-standard-error pruning rule.

    Parameters
    ----------
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Draws the internal cross-validation folds and the seeds of the grown trees.
    xval : int
        Internal cross-validation folds (>= 2), 10 as in ``rpart``.
    cp_min : float
        Smallest relative complexity considered (``rpart``'s ``cp``), 0.01.
    min_split, min_leaf : int
        ``rpart``'s ``minsplit`` (20) and ``minbucket`` (``round(minsplit / 3)`` = 7).
    grower : {"presorted", "sklearn"}
        Who grows the trees (see the module docstring); the choice only matters between
        splits of exactly equal gain.

    References
    ----------
    Breiman et al. (1984), Sec. 3.4 (1-SE rule); Therneau & Atkinson (rpart).
    """

    def __init__(
        self,
        *,
        rng: RngLike,
        xval: int = 10,
        cp_min: float = 0.01,
        min_split: int = 20,
        min_leaf: int = 7,
        grower: str = "presorted",
    ) -> None:
        self._gen = as_generator(rng)
        self.xval = check_int(xval, "xval", minimum=2)
        self.cp_min = float(check_array(cp_min, "cp_min", ndim=0))
        if not self.cp_min > 0:
            raise ValueError(f"cp_min: expected a complexity > 0, got {self.cp_min}")
        self.min_split = check_int(min_split, "min_split", minimum=2)
        self.min_leaf = check_int(min_leaf, "min_leaf", minimum=1)
        if grower not in ("presorted", "sklearn"):
            raise ValueError(f"grower: expected 'presorted' or 'sklearn', got {grower!r}")
        self.grower = grower

    def _grower(self, X: np.ndarray, y: np.ndarray):
        """``grow(rows, min_cp)``: a tree grown on the rows where the boolean ``rows`` is
        true, the same as grown in full at every complexity ``cp >= min_cp`` (relative to its
        root's risk)."""
        if self.grower == "presorted":
            from .presorted_tree import PresortedTree, presort

            X32 = np.ascontiguousarray(X, dtype=np.float32)
            order = presort(X32)
            kwargs = {
                "min_split": self.min_split,
                "min_leaf": self.min_leaf,
                "max_depth": 30,
            }

            def grow(rows, min_cp):
                self._gen.integers(_INT32_MAX)  # the draw of the reference's tree seed
                return PresortedTree.grow_subset(X32, y, order, rows, **kwargs, min_cp=min_cp)

            return grow
        # imported here so that importing the simulation engine does not load scikit-learn
        from sklearn.tree import DecisionTreeClassifier

        def grow(rows, min_cp):  # grown in full, min_cp aside: pruned afterwards
            return DecisionTreeClassifier(
                min_samples_split=self.min_split,
                min_samples_leaf=self.min_leaf,
                max_depth=30,
                random_state=int(self._gen.integers(_INT32_MAX)),
            ).fit(X[rows], y[rows])

        return grow

    def fit(self, X: np.ndarray, y: np.ndarray) -> OneSETreeClassifier:
        """Grow, cross-validate and prune the tree.

        The pruned tree is the smallest whose cross-validated error is within one
        standard error, ``sqrt(e (1 - e) / n)`` of the smallest error ``e``, of it.

        Parameters
        ----------
        X : numpy.ndarray, shape (n, p)
            Features.
        y : numpy.ndarray, shape (n,)
            Class labels.

        Returns
        -------
        OneSETreeClassifier
            ``self``, with ``tree_`` (the grown tree), ``classes_`` and ``cp_`` (the
            complexity chosen) set.
        """
        X = np.asarray(X, dtype=float)
        y = np.asarray(y)
        n = y.size
        grow = self._grower(X, y)
        full = grow(np.ones(n, dtype=bool), self.cp_min)
        collapse = weakest_link_cp(full.tree_)
        cuts = np.unique(collapse[collapse >= self.cp_min])[::-1]  # decreasing
        cps = np.append(cuts, self.cp_min) if cuts.size == 0 or cuts[-1] > self.cp_min else cuts
        # evaluate each candidate inside its interval [cps[i], cps[i-1]), the first at ten
        # times its cp ("close enough to infinity", as rpart's xval)
        probes = np.concatenate([[10.0 * cps[0]], np.sqrt(cps[1:] * cps[:-1])])
        chosen = cps[0]
        if cps.size > 1:
            codes = np.unique(y, return_inverse=True)[1].reshape(-1)
            rate = _risk_rate(codes)
            errors = np.zeros(cps.size)
            folds = self._gen.permutation(np.arange(n) % self.xval)
            for v in range(self.xval):
                test = folds == v
                if not test.any():  # fewer instances than folds: leave-one-out
                    continue
                # rpart grows and prunes a fold's tree at the same complexity per instance,
                # alpha / n: relative to the fold's root risk, cp (R(root) / n) / (R_v(root) / n_v)
                scale = rate / max(_risk_rate(codes[~test]), 1e-300)
                tree = grow(~test, self.cp_min * scale)
                rep = _pruned_leaf_map(tree.tree_, weakest_link_cp(tree.tree_), probes * scale)
                node_class = _node_classes(tree.tree_, tree.classes_)
                leaves = tree.apply(X[test])
                errors += (node_class[rep[:, leaves]] != y[test][None, :]).sum(axis=1)
            xerror = errors / n
            best = int(np.argmin(xerror))
            xstd = np.sqrt(xerror[best] * (1.0 - xerror[best]) / n)
            chosen = cps[int(np.argmax(xerror <= xerror[best] + xstd + 1e-12))]
        self.tree_ = full
        self.classes_ = full.classes_
        self.cp_ = float(chosen)
        self._leaf_map = _pruned_leaf_map(full.tree_, collapse, np.array([chosen]))[0]
        self._node_class = _node_classes(full.tree_, full.classes_)
        return self

    @property
    def n_leaves_(self) -> int:
        """Number of leaves of the pruned tree."""
        return int(np.unique(self._leaf_map[self.tree_.tree_.children_left < 0]).size)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Predict with the pruned tree.

        Parameters
        ----------
        X : numpy.ndarray, shape (m, p)
            Features.

        Returns
        -------
        numpy.ndarray, shape (m,)
            Labels from ``classes_``: the majority class of each pruned leaf reached.
        """
        leaves = self.tree_.apply(np.asarray(X, dtype=float))
        return self._node_class[self._leaf_map[leaves]]
